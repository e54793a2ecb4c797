import Anthropic from '@anthropic-ai/sdk';
import { ConfigError } from '@mcp-agent/core';
import { endpointRefusal, type EndpointSettings } from './endpoint-refusal.js';
import type { ContentBlock, ModelClient, ModelRequest, ModelResponse } from './model-client.js';

/** The model used when `ANTHROPIC_MODEL` is not set: one `@anthropic-ai/sdk` does not list as deprecated. */
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-5-5';

/** Options of {@link createAnthropicModelClient}; each defaults to its environment variable. */
export interface AnthropicModelClientOptions {
  /** `ANTHROPIC_API_KEY`. */
  readonly apiKey?: string;
  /** `ANTHROPIC_BASE_URL`: any Anthropic-compatible endpoint, local ones included. */
  readonly baseURL?: string;
  /** `ANTHROPIC_MODEL`, default {@link DEFAULT_ANTHROPIC_MODEL}. */
  readonly model?: string;
  /**
   * What chose `model`, named in the fix when the endpoint does not know it: the variable a host
   * read it from (`createModelClientFromEnv` passes `MCP_AGENT_MODEL`); default `the model
   * option`.
   */
  readonly modelFrom?: string;
  /** Retries of 408/409/429/5xx (529 included), honouring retry-after; default 2. */
  readonly maxRetries?: number;
  /** Per-request timeout; default 10 minutes (the SDK's). */
  readonly timeoutMs?: number;
  /** Where the variables above are read when an option is left out; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The Anthropic adapter over `@anthropic-ai/sdk`: tool use, prompt caching of the system prompt
 * (which carries the inventory), the SDK's own retries, and usage with cache reads and writes.
 * A missing key is a `ConfigError` here, before any work starts.
 *
 * Its `generate` rejects with `UnauthorizedError` (`UNAUTHORIZED`) when the endpoint refuses
 * the key (401, 403), naming where the key came from, and with `ConfigError` (`CONFIG_INVALID`)
 * when it refuses the request (400, 404, 422), described by what its body says (an unknown
 * model, with the setting that chose it; no such route; tools not supported; a tool's schema
 * not accepted; anything else), each naming the endpoint, the model and the fix; a 429 or 5xx
 * the SDK retried in vain is the SDK's own error, which the task reports as `INTERNAL`.
 *
 * @throws ConfigError (`CONFIG_INVALID`) when neither `apiKey` nor `ANTHROPIC_API_KEY` is set.
 *
 * @example
 * ```ts
 * import { createAnthropicModelClient } from '@mcp-agent/agent/anthropic';
 *
 * // Any Anthropic-compatible endpoint: a gateway, a proxy, a local server.
 * const model = createAnthropicModelClient({
 *   apiKey: process.env.GATEWAY_KEY,
 *   baseURL: 'https://llm-gateway.internal/anthropic',
 *   model: 'claude-sonnet-5-5',
 * });
 * const stack = await openAgentStack({ model });
 * ```
 */
export function createAnthropicModelClient(options: AnthropicModelClientOptions = {}): ModelClient {
  const env = options.env ?? process.env;
  const apiKey = options.apiKey ?? env.ANTHROPIC_API_KEY;
  if (apiKey === undefined || apiKey === '') {
    throw new ConfigError(
      'No model endpoint is configured: set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for an Anthropic-compatible endpoint other than api.anthropic.com).',
    );
  }
  const baseURL = options.baseURL ?? (env.ANTHROPIC_BASE_URL || undefined);
  const modelId = options.model ?? (env.ANTHROPIC_MODEL || DEFAULT_ANTHROPIC_MODEL);
  const client = new Anthropic({
    apiKey,
    ...(baseURL === undefined ? {} : { baseURL }),
    maxRetries: options.maxRetries ?? 2,
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
  });
  const settings: EndpointSettings = {
    endpoint: client.baseURL,
    api: 'Anthropic Messages API (its /v1/messages)',
    model: modelId,
    modelFrom:
      options.model !== undefined
        ? (options.modelFrom ?? 'the model option')
        : env.ANTHROPIC_MODEL
          ? 'ANTHROPIC_MODEL'
          : undefined,
    keyFrom: options.apiKey !== undefined ? 'the apiKey option' : 'ANTHROPIC_API_KEY',
    keyVariable: 'ANTHROPIC_API_KEY',
    endpointVariable: 'ANTHROPIC_BASE_URL',
    modelVariable: 'MCP_AGENT_MODEL=anthropic:<model> (or ANTHROPIC_MODEL)',
    toolsFix: 'mcp-agent needs tool use: use a model and endpoint that support it.',
  };
  // The SDK's error carries the body; its own message is what the body says, without the JSON.
  const refusal = (error: unknown, request: ModelRequest) => {
    if (!(error instanceof Anthropic.APIError) || error.status === undefined) return undefined;
    const body = error.error as { error?: { message?: unknown } } | undefined;
    const said = typeof body?.error?.message === 'string' ? body.error.message : error.message;
    const tools = request.tools.map((tool) => tool.name);
    return endpointRefusal(error.status, said, settings, tools, error);
  };
  return {
    specificationVersion: 'v1',
    modelId,
    images: true,
    async generate(request: ModelRequest): Promise<ModelResponse> {
      const message = await client.messages
        .create(
          {
            model: modelId,
            max_tokens: request.maxTokens,
            system: [{ type: 'text', text: request.system, cache_control: { type: 'ephemeral' } }],
            messages: request.messages.map((m) => ({
              role: m.role,
              content: m.content.map(toParam),
            })) as unknown as Anthropic.MessageParam[],
            tools: request.tools.map((tool) => ({
              name: tool.name,
              description: tool.description,
              input_schema: tool.inputSchema as Anthropic.Tool.InputSchema,
            })),
          },
          request.signal === undefined ? {} : { signal: request.signal },
        )
        .catch((error: unknown) => {
          throw refusal(error, request) ?? error;
        });
      const content: ContentBlock[] = [];
      for (const block of message.content) {
        if (block.type === 'text') content.push({ type: 'text', text: block.text });
        else if (block.type === 'tool_use')
          content.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input });
      }
      const usage = message.usage;
      return {
        content,
        stopReason: message.stop_reason ?? null,
        usage: {
          inputTokens: usage.input_tokens ?? 0,
          outputTokens: usage.output_tokens ?? 0,
          cacheReadTokens: usage.cache_read_input_tokens ?? 0,
          cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
        },
      };
    },
  };
}

function toParam(block: ContentBlock): Record<string, unknown> {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
    case 'tool_result':
      return {
        type: 'tool_result',
        tool_use_id: block.tool_use_id,
        // A tool result may carry image blocks after its text; without images it stays a string.
        content:
          block.images === undefined || block.images.length === 0
            ? block.content
            : [
                { type: 'text', text: block.content },
                ...block.images.map((image) => ({
                  type: 'image',
                  source: { type: 'base64', media_type: image.mimeType, data: image.data },
                })),
              ],
        ...(block.is_error ? { is_error: true } : {}),
      };
  }
}
