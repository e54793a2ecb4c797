import OpenAI from 'openai';
import { ConfigError } from '@mcp-agent/core';
import { endpointRefusal, type EndpointSettings } from './endpoint-refusal.js';
import { InvalidToolInput } from '../input/invalid-tool-input.js';
import {
  type ContentBlock,
  type ModelClient,
  type ModelMessage,
  type ModelRequest,
  type ModelResponse,
} from './model-client.js';

/** The model used when `MCP_AGENT_MODEL=openai:` names none and `OPENAI_MODEL` is not set. */
export const DEFAULT_OPENAI_MODEL = 'gpt-6.1-sol';

/** OpenAI's own endpoint: the SDK's default base URL. */
const OPENAI_API = 'https://api.openai.com/v1';

/** Options of {@link createOpenAIModelClient}; each defaults to its environment variable. */
export interface OpenAIModelClientOptions {
  /** `OPENAI_API_KEY`; may be left out when `baseURL` names another endpoint (a local model). */
  readonly apiKey?: string;
  /** `OPENAI_BASE_URL`: any Chat Completions endpoint (vLLM, Ollama, llama.cpp, LM Studio, LiteLLM). */
  readonly baseURL?: string;
  /** `OPENAI_MODEL`, default {@link DEFAULT_OPENAI_MODEL}. */
  readonly model?: string;
  /**
   * What chose `model`, named in the fix when the endpoint does not know it: the variable a host
   * read it from (`createModelClientFromEnv` passes `MCP_AGENT_MODEL`); default `the model
   * option`.
   */
  readonly modelFrom?: string;
  /** Retries of 408/409/429/5xx, honouring retry-after(-ms); default 2 (the SDK's). */
  readonly maxRetries?: number;
  /** Per-request timeout; default 10 minutes (the SDK's). */
  readonly timeoutMs?: number;
  /**
   * The request field carrying the output cap. Default `max_completion_tokens` on OpenAI's own
   * endpoint (which refuses `max_tokens` for reasoning models) and `max_tokens` elsewhere (Ollama
   * and LM Studio know only that one; vLLM, llama.cpp and LiteLLM take both).
   */
  readonly maxTokensField?: 'max_completion_tokens' | 'max_tokens';
  /**
   * When the first answer of a conversation offered tools has no tool call, ask once more with
   * `tool_choice: "required"` to tell an endpoint that ignores tools from a model that chose not
   * to use them; default true. See the package README.
   */
  readonly verifyToolSupport?: boolean;
  /**
   * Whether the model reads images (`image_url` parts); default true. Set false for a text-only
   * local model, which many endpoints fail on an image part: images are then only described.
   */
  readonly images?: boolean;
  /**
   * Where the variables above (and `OPENAI_ORG_ID`, `OPENAI_PROJECT_ID`) are read when an option
   * is left out; default `process.env`.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The OpenAI-compatible adapter over the `openai` SDK: Chat Completions with function tools
 * (the meta-tools' JSON Schemas), several tool calls per turn in order, arguments that are not
 * JSON passed on as {@link InvalidToolInput}, usage with cached prompt tokens, the SDK's retries,
 * and any `baseURL`. An endpoint that ignores or refuses tools is a `ConfigError` saying so.
 *
 * Its `generate` rejects with `UnauthorizedError` (`UNAUTHORIZED`) when the endpoint refuses
 * the key (401, 403), naming where the key came from, and with `ConfigError` (`CONFIG_INVALID`)
 * when it refuses the request (400, 404, 422, or a 5xx that says it takes no tools), described
 * by what its body says (an unknown model, with the setting that chose it; no such route;
 * function tools not supported, with the server flag to set; a tool's schema not accepted;
 * anything else), or answers in words twice although a tool call was required; each names the
 * endpoint and the model. A 429 or 5xx the SDK retried in vain is the SDK's own error, which
 * the task reports as `INTERNAL`.
 *
 * @throws ConfigError (`CONFIG_INVALID`) when neither a key (`apiKey`, `OPENAI_API_KEY`) nor an
 * endpoint (`baseURL`, `OPENAI_BASE_URL`) is given.
 *
 * @example
 * ```ts
 * import { createOpenAIModelClient } from '@mcp-agent/agent/openai';
 *
 * // vLLM serving a local model (started with --enable-auto-tool-choice); no key needed.
 * const model = createOpenAIModelClient({
 *   baseURL: 'http://127.0.0.1:8000/v1',
 *   model: 'Qwen/Qwen3-32B',
 * });
 * const result = await agent.executeTask('Which of my servers are down?', 'alice', { model });
 * ```
 */
export function createOpenAIModelClient(options: OpenAIModelClientOptions = {}): ModelClient {
  const env = options.env ?? process.env;
  const baseURL = options.baseURL ?? (env.OPENAI_BASE_URL || undefined);
  let apiKey = options.apiKey ?? (env.OPENAI_API_KEY || undefined);
  if (apiKey === undefined) {
    if (baseURL === undefined) {
      throw new ConfigError(
        'No model endpoint is configured for openai: set OPENAI_API_KEY, or OPENAI_BASE_URL for an OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp, LM Studio, LiteLLM).',
      );
    }
    // Local endpoints take no key; the SDK insists on one, and they ignore the header.
    apiKey = 'no-key';
  }
  const modelId = options.model ?? (env.OPENAI_MODEL || DEFAULT_OPENAI_MODEL);
  const maxTokensField =
    options.maxTokensField ?? (baseURL === undefined ? 'max_completion_tokens' : 'max_tokens');
  const client = new OpenAI({
    apiKey,
    // Passed explicitly, so that `env` (not the process's) decides, as for every other option.
    baseURL: baseURL ?? OPENAI_API,
    organization: env.OPENAI_ORG_ID ?? null,
    project: env.OPENAI_PROJECT_ID ?? null,
    maxRetries: options.maxRetries ?? 2,
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
  });
  const endpoint = baseURL ?? OPENAI_API;
  const settings: EndpointSettings = {
    endpoint,
    api: 'OpenAI Chat Completions API (its /chat/completions)',
    model: modelId,
    modelFrom:
      options.model !== undefined
        ? (options.modelFrom ?? 'the model option')
        : env.OPENAI_MODEL
          ? 'OPENAI_MODEL'
          : undefined,
    keyFrom:
      options.apiKey !== undefined
        ? 'the apiKey option'
        : env.OPENAI_API_KEY
          ? 'OPENAI_API_KEY'
          : undefined,
    keyVariable: 'OPENAI_API_KEY',
    endpointVariable: 'OPENAI_BASE_URL',
    modelVariable: 'MCP_AGENT_MODEL=openai:<model> (or OPENAI_MODEL)',
    toolsFix: TOOLS_FIX,
  };
  const create = async (
    request: ModelRequest,
    toolChoice: 'auto' | 'required' | undefined,
  ): Promise<OpenAI.Chat.Completions.ChatCompletion> => {
    try {
      return await client.chat.completions.create(
        {
          model: modelId,
          ...(maxTokensField === 'max_tokens'
            ? { max_tokens: request.maxTokens }
            : { max_completion_tokens: request.maxTokens }),
          messages: [{ role: 'system', content: request.system }, ...toWire(request.messages)],
          ...(request.tools.length === 0
            ? {}
            : {
                tools: request.tools.map((tool) => ({
                  type: 'function' as const,
                  function: {
                    name: tool.name,
                    description: tool.description,
                    parameters: tool.inputSchema,
                  },
                })),
                ...(toolChoice === undefined ? {} : { tool_choice: toolChoice }),
              }),
        },
        request.signal === undefined ? {} : { signal: request.signal },
      );
    } catch (error) {
      throw refusal(error, request, settings) ?? error;
    }
  };
  const verify = options.verifyToolSupport ?? true;
  return {
    specificationVersion: 'v1',
    modelId,
    images: options.images ?? true,
    async generate(request: ModelRequest): Promise<ModelResponse> {
      const first = fromWire(await create(request, undefined));
      const opening = !request.messages.some((message) => message.role === 'assistant');
      if (!verify || !opening || request.tools.length === 0 || hasToolUse(first)) return first;
      // A first answer without a tool call: a model that chose to answer, or an endpoint that
      // dropped the tools. Asked again with a tool required, the first calls one; the second
      // answers in words again.
      const forced = fromWire(await create(request, 'required'));
      const usage = addUsage(first.usage, forced.usage);
      if (hasToolUse(forced)) return { ...forced, usage };
      throw new ConfigError(
        `The model endpoint ${endpoint} (model "${modelId}") ignores function tools: it answered in words twice, the second time although a tool call was required. ${TOOLS_FIX}`,
        { details: { endpoint, model: modelId, usage } },
      );
    },
  };
}

type WireMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

// Our Messages-shaped turns as Chat Completions messages: tool results become `tool` messages
// (in order, before any text of the same turn), tool uses the assistant's `tool_calls`.
function toWire(messages: readonly ModelMessage[]): WireMessage[] {
  const wire: WireMessage[] = [];
  for (const message of messages) {
    const text = message.content
      .filter((b): b is Extract<ContentBlock, { type: 'text' }> => b.type === 'text')
      .map((b) => b.text)
      .join('\n');
    if (message.role === 'assistant') {
      const calls = message.content.filter(
        (b): b is Extract<ContentBlock, { type: 'tool_use' }> => b.type === 'tool_use',
      );
      wire.push({
        role: 'assistant',
        content: text === '' ? null : text,
        ...(calls.length === 0
          ? {}
          : {
              tool_calls: calls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: {
                  name: call.name,
                  arguments:
                    call.input instanceof InvalidToolInput
                      ? call.input.raw
                      : JSON.stringify(call.input ?? {}),
                },
              })),
            }),
      });
      continue;
    }
    // A tool message carries text only: the images of a turn's results follow all its tool
    // messages (the API wants those right after the tool calls) in one user message.
    const images: OpenAI.Chat.Completions.ChatCompletionContentPart[] = [];
    for (const block of message.content) {
      if (block.type !== 'tool_result') continue;
      wire.push({ role: 'tool', tool_call_id: block.tool_use_id, content: block.content });
      block.images?.forEach((image, index) => {
        images.push(
          {
            type: 'text',
            text: `Image ${index + 1} of the result of tool call ${block.tool_use_id}:`,
          },
          {
            type: 'image_url',
            image_url: { url: `data:${image.mimeType};base64,${image.data}` },
          },
        );
      });
    }
    if (images.length > 0)
      wire.push({
        role: 'user',
        content: text === '' ? images : [...images, { type: 'text', text }],
      });
    else if (text !== '') wire.push({ role: 'user', content: text });
  }
  return wire;
}

const STOP_REASONS: Readonly<Record<string, string>> = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  length: 'max_tokens',
};

function fromWire(completion: OpenAI.Chat.Completions.ChatCompletion): ModelResponse {
  const choice = completion.choices?.[0];
  if (choice === undefined)
    throw new Error('The model endpoint answered with no choices: nothing to act on.');
  const { message } = choice;
  const content: ContentBlock[] = [];
  const text = message.content ?? message.refusal ?? '';
  if (text !== '') content.push({ type: 'text', text });
  for (const call of message.tool_calls ?? []) {
    if (call.type === 'function')
      content.push({
        type: 'tool_use',
        id: call.id,
        name: call.function.name,
        input: parseArguments(call.function.arguments),
      });
    else
      content.push({
        type: 'tool_use',
        id: call.id,
        name: call.custom.name,
        input: call.custom.input,
      });
  }
  const usage = completion.usage;
  const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
  const written = usage?.prompt_tokens_details?.cache_write_tokens ?? 0;
  return {
    content,
    stopReason: STOP_REASONS[choice.finish_reason] ?? choice.finish_reason ?? null,
    usage: {
      // prompt_tokens counts the cached ones too; ours are disjoint, as Anthropic's are.
      inputTokens: Math.max(0, (usage?.prompt_tokens ?? 0) - cached - written),
      outputTokens: usage?.completion_tokens ?? 0,
      cacheReadTokens: cached,
      cacheWriteTokens: written,
    },
  };
}

// The model writes arguments as a JSON string; an empty one means no arguments.
function parseArguments(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw);
  } catch (error) {
    return new InvalidToolInput(raw, (error as Error).message);
  }
}

function hasToolUse(response: ModelResponse): boolean {
  return response.content.some((block) => block.type === 'tool_use');
}

function addUsage(a: ModelResponse['usage'], b: ModelResponse['usage']): ModelResponse['usage'] {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}

const TOOLS_FIX =
  'mcp-agent needs function calling: use a model that supports tools, and on vLLM start it with --enable-auto-tool-choice --tool-call-parser <parser>, on llama.cpp with --jinja.';

// The SDK's error, described by what the endpoint's body says (its `error.message`, without
// the status the SDK puts before it).
function refusal(error: unknown, request: ModelRequest, settings: EndpointSettings) {
  if (!(error instanceof OpenAI.APIError) || error.status === undefined) return undefined;
  const body = error.error as { message?: unknown } | undefined;
  const said = typeof body?.message === 'string' ? body.message : error.message;
  const tools = request.tools.map((tool) => tool.name);
  return endpointRefusal(error.status, said, settings, tools, error);
}
