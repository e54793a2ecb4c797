import {
  inSpan,
  instruments,
  SpanKind,
  tenantAttributes,
  type AgentContext,
  type Attributes,
} from '@mcp-agent/core';
import type { ModelClient, ModelRequest, ModelResponse } from '../model/model-client.js';

/**
 * One model request in a `chat <model>` client span with the OpenTelemetry GenAI attributes
 * (model, token usage, finish reason; never the prompt or the answer), and its tokens counted
 * per model and tenant. Wraps whichever adapter the task uses, so every adapter is traced alike.
 */
export function generateTraced(
  ctx: AgentContext,
  model: ModelClient,
  request: ModelRequest,
): Promise<ModelResponse> {
  const base: Attributes = { 'gen_ai.request.model': model.modelId };
  return inSpan(
    `chat ${model.modelId}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        ...base,
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.max_tokens': request.maxTokens,
      },
    },
    async (span) => {
      const metrics = instruments();
      const started = performance.now();
      let outcome = 'error';
      try {
        const response = await model.generate(request);
        outcome = 'ok';
        const { usage } = response;
        span.setAttributes({
          'gen_ai.usage.input_tokens': usage.inputTokens,
          'gen_ai.usage.output_tokens': usage.outputTokens,
          'gen_ai.usage.cache_read.input_tokens': usage.cacheReadTokens,
          'gen_ai.usage.cache_creation.input_tokens': usage.cacheWriteTokens,
          ...(response.stopReason === null
            ? {}
            : { 'gen_ai.response.finish_reasons': [response.stopReason] }),
        });
        const perTenant = { ...base, ...tenantAttributes(ctx.userId) };
        const counts = [
          ['input', usage.inputTokens],
          ['output', usage.outputTokens],
          ['cache_read', usage.cacheReadTokens],
          ['cache_write', usage.cacheWriteTokens],
        ] as const;
        for (const [type, count] of counts)
          if (count > 0)
            metrics.modelTokens.add(count, { ...perTenant, 'gen_ai.token.type': type });
        return response;
      } finally {
        metrics.modelDuration.record((performance.now() - started) / 1000, { ...base, outcome });
      }
    },
  );
}
