import {
  startScriptedEndpoint,
  type RecordedHttpRequest,
  type ScriptEntry,
  type ScriptedEndpoint,
} from './scripted-endpoint.js';

/** The parsed JSON body of a Messages API request. */
export interface AnthropicRequestBody {
  readonly model: string;
  readonly max_tokens: number;
  readonly system?: unknown;
  readonly messages: readonly { role: string; content: unknown }[];
  readonly tools?: readonly { name: string; description?: string; input_schema: unknown }[];
}

/** One recorded request to the scripted server. */
export type RecordedRequest = RecordedHttpRequest<AnthropicRequestBody>;

/** A content block the script can answer with. */
export type ScriptedBlock =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'tool_use';
      readonly id?: string;
      readonly name: string;
      readonly input: unknown;
    };

/** A scripted message answer. */
export interface ScriptedMessage {
  readonly content: readonly ScriptedBlock[];
  readonly stop_reason?: string;
  readonly usage?: Partial<{
    input_tokens: number;
    output_tokens: number;
    cache_read_input_tokens: number;
    cache_creation_input_tokens: number;
  }>;
  /** Wait this long before answering (to test cancellation). */
  readonly delayMs?: number;
}

/** A scripted error answer. */
export interface ScriptedError {
  readonly error: {
    readonly status: number;
    readonly type: string;
    readonly message: string;
    readonly retryAfterMs?: number;
  };
}

/** One scripted answer: a message, an error, or a function of the request that returns one. */
export type ScriptStep = ScriptEntry<AnthropicRequestBody, ScriptedMessage | ScriptedError>;

/** A running scripted server. */
export type ScriptedAnthropicServer = ScriptedEndpoint<
  AnthropicRequestBody,
  ScriptedMessage | ScriptedError
>;

/**
 * An Anthropic-compatible Messages API on loopback that plays a script of responses (text,
 * tool_use, stop reasons, usage, and errors such as 429 and 529) and records every request, so
 * agent tests drive the real `@anthropic-ai/sdk` over real HTTP. `url` is the base URL to give
 * the SDK (`ANTHROPIC_BASE_URL`). A request past the end of the script gets a 500 that says so.
 */
export function startScriptedAnthropicServer(
  script: readonly ScriptStep[] = [],
): Promise<ScriptedAnthropicServer> {
  return startScriptedEndpoint<AnthropicRequestBody, ScriptedMessage | ScriptedError>(
    {
      serves: (method, path) => method === 'POST' && path.startsWith('/v1/messages'),
      error: (status, message) => ({
        type: 'error',
        error: {
          type:
            status === 404
              ? 'not_found_error'
              : status === 400
                ? 'invalid_request_error'
                : 'api_error',
          message,
        },
      }),
      answer: (step, request, index) => {
        if ('error' in step) {
          return {
            status: step.error.status,
            body: { type: 'error', error: { type: step.error.type, message: step.error.message } },
            headers:
              step.error.retryAfterMs === undefined
                ? {}
                : ({ 'retry-after-ms': String(step.error.retryAfterMs) } as Record<string, string>),
          };
        }
        const content = step.content.map((block, position) =>
          block.type === 'tool_use'
            ? {
                type: 'tool_use',
                id: block.id ?? `toolu_${index}_${position}`,
                name: block.name,
                input: block.input,
              }
            : block,
        );
        return {
          status: 200,
          ...(step.delayMs === undefined ? {} : { delayMs: step.delayMs }),
          body: {
            id: `msg_${index + 1}`,
            type: 'message',
            role: 'assistant',
            model: request.body.model,
            content,
            stop_reason:
              step.stop_reason ??
              (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'),
            stop_sequence: null,
            usage: {
              input_tokens: 100,
              output_tokens: 20,
              cache_read_input_tokens: 0,
              cache_creation_input_tokens: 0,
              ...step.usage,
            },
          },
        };
      },
    },
    script,
  );
}
