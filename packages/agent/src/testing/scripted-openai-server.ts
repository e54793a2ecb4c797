import {
  startScriptedEndpoint,
  type RecordedHttpRequest,
  type ScriptEntry,
  type ScriptedEndpoint,
} from './scripted-endpoint.js';

/** The parsed JSON body of a Chat Completions request. */
export interface ChatCompletionsRequestBody {
  readonly model: string;
  readonly max_tokens?: number;
  readonly max_completion_tokens?: number;
  readonly messages: readonly {
    readonly role: string;
    readonly content?: unknown;
    readonly tool_calls?: readonly {
      readonly id: string;
      readonly function: { readonly name: string; readonly arguments: string };
    }[];
    readonly tool_call_id?: string;
  }[];
  readonly tools?: readonly {
    readonly type: string;
    readonly function: {
      readonly name: string;
      readonly description?: string;
      parameters: unknown;
    };
  }[];
  readonly tool_choice?: unknown;
}

/** One recorded request to the scripted OpenAI-compatible server. */
export type RecordedChatRequest = RecordedHttpRequest<ChatCompletionsRequestBody>;

/** A tool call the script answers with; object arguments are sent as their JSON. */
export interface ScriptedToolCall {
  readonly id?: string;
  readonly name: string;
  /** A string goes out as written (broken JSON included), an object as `JSON.stringify` of it. */
  readonly arguments: string | object;
}

/** A scripted completion: `choices[0].message` and its finish reason, and usage. */
export interface ScriptedCompletion {
  readonly content?: string | null;
  readonly tool_calls?: readonly ScriptedToolCall[];
  /** Default `tool_calls` when there are some, else `stop`. */
  readonly finish_reason?: string;
  /** Default 100 prompt and 20 completion tokens, none cached; `null` leaves usage out. */
  readonly usage?: Partial<{
    prompt_tokens: number;
    completion_tokens: number;
    cached_tokens: number;
  }> | null;
  /** Wait this long before answering (to test cancellation). */
  readonly delayMs?: number;
}

/** A scripted error: status, `error.message` and `type`, and optionally `retry-after`. */
export interface ScriptedChatError {
  readonly error: {
    readonly status: number;
    readonly message: string;
    readonly type?: string;
    readonly code?: string;
    /** Seconds, sent as the standard `retry-after` header. */
    readonly retryAfterSeconds?: number;
  };
}

/** One scripted answer: a completion, an error, or a function of the request returning one. */
export type ChatScriptStep = ScriptEntry<
  ChatCompletionsRequestBody,
  ScriptedCompletion | ScriptedChatError
>;

/** A running scripted OpenAI-compatible server; `url` is the base URL (`…/v1`) for the SDK. */
export type ScriptedOpenAIServer = ScriptedEndpoint<
  ChatCompletionsRequestBody,
  ScriptedCompletion | ScriptedChatError
>;

/**
 * An OpenAI-compatible Chat Completions API on loopback (`POST /v1/chat/completions`) that plays
 * a script — text, `tool_calls` with JSON-string arguments, finish reasons, usage with cached
 * prompt tokens, and errors such as 429 with `retry-after` and 500 — and records every request,
 * so agent tests drive the real `openai` SDK over real HTTP. A request past the end of the script
 * gets a 500 that says so.
 */
export async function startScriptedOpenAIServer(
  script: readonly ChatScriptStep[] = [],
): Promise<ScriptedOpenAIServer> {
  const endpoint = await startScriptedEndpoint<
    ChatCompletionsRequestBody,
    ScriptedCompletion | ScriptedChatError
  >(
    {
      serves: (method, path) => method === 'POST' && path.startsWith('/v1/chat/completions'),
      error: (status, message) => ({
        error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error' },
      }),
      answer: (step, request, index) => {
        if ('error' in step) {
          const { status, message, type, code, retryAfterSeconds } = step.error;
          return {
            status,
            body: {
              error: {
                message,
                type: type ?? 'invalid_request_error',
                param: null,
                code: code ?? null,
              },
            },
            headers:
              retryAfterSeconds === undefined
                ? {}
                : ({ 'retry-after': String(retryAfterSeconds) } as Record<string, string>),
          };
        }
        const calls = (step.tool_calls ?? []).map((call, position) => ({
          id: call.id ?? `call_${index}_${position}`,
          type: 'function',
          function: {
            name: call.name,
            arguments:
              typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
          },
        }));
        const usage = step.usage === null ? undefined : { ...step.usage };
        const prompt = usage?.prompt_tokens ?? 100;
        const completion = usage?.completion_tokens ?? 20;
        return {
          status: 200,
          ...(step.delayMs === undefined ? {} : { delayMs: step.delayMs }),
          body: {
            id: `chatcmpl-${index + 1}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: request.body.model,
            choices: [
              {
                index: 0,
                message: {
                  role: 'assistant',
                  content: step.content ?? null,
                  refusal: null,
                  ...(calls.length === 0 ? {} : { tool_calls: calls }),
                },
                finish_reason: step.finish_reason ?? (calls.length > 0 ? 'tool_calls' : 'stop'),
                logprobs: null,
              },
            ],
            ...(step.usage === null
              ? {}
              : {
                  usage: {
                    prompt_tokens: prompt,
                    completion_tokens: completion,
                    total_tokens: prompt + completion,
                    prompt_tokens_details: { cached_tokens: usage?.cached_tokens ?? 0 },
                    completion_tokens_details: { reasoning_tokens: 0 },
                  },
                }),
          },
        };
      },
    },
    script,
  );
  return { ...endpoint, url: `${endpoint.url}/v1` };
}
