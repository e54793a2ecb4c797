import {
  inSpan,
  instruments,
  markSpanFailed,
  SpanKind,
  tenantAttributes,
  type MCPTaskResult,
} from '@mcp-agent/core';

/**
 * Runs one task in its root span, `mcp_agent.task`: every step, model request, meta-tool,
 * dispatch, sandbox run and pooled MCP request of the task (its server sub-agents' too) is a
 * descendant, so one task is one trace. The span says how the task ended and what it used, never
 * what it was asked or answered; the task counters are recorded here too.
 */
export function traceTask(
  userId: string,
  run: () => Promise<MCPTaskResult>,
): Promise<MCPTaskResult> {
  const attributes = typeof userId === 'string' ? tenantAttributes(userId) : {};
  return inSpan('mcp_agent.task', { kind: SpanKind.INTERNAL, attributes }, async (span) => {
    const result = await run();
    span.setAttributes({
      'mcp_agent.request_id': result.requestId,
      'mcp_agent.task.status': result.status,
      'mcp_agent.task.steps': result.steps.length,
      'mcp_agent.task.tools_used': result.toolsUsed.length,
      'gen_ai.usage.input_tokens': result.usage.inputTokens,
      'gen_ai.usage.output_tokens': result.usage.outputTokens,
    });
    if (result.status !== 'completed') markSpanFailed(span, result.error?.code ?? result.status);
    const metrics = instruments();
    metrics.tasks.add(1, { status: result.status });
    metrics.taskDuration.record(result.durationMs / 1000, { status: result.status });
    return result;
  });
}
