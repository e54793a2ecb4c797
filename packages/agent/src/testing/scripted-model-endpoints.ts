// For tests and benchmarks: one scripted model endpoint per adapter behind one interface, so that the same
// end-to-end walks run through the real @anthropic-ai/sdk and the real openai SDK. Turns are
// written once, adapter-neutral, and each endpoint plays them in its own wire format.
import type { ModelClient } from '../model/model-client.js';
import { createAnthropicModelClient } from '../model/anthropic-model-client.js';
import { createOpenAIModelClient } from '../model/openai-model-client.js';
import {
  startScriptedAnthropicServer,
  type AnthropicRequestBody,
  type ScriptedError,
  type ScriptedMessage,
} from './scripted-anthropic-server.js';
import type { ScriptedEndpoint } from './scripted-endpoint.js';
import {
  startScriptedOpenAIServer,
  type ChatCompletionsRequestBody,
  type ScriptedChatError,
  type ScriptedCompletion,
} from './scripted-openai-server.js';

/** The two model adapters. */
export type Adapter = 'anthropic' | 'openai';
export const ADAPTERS: readonly Adapter[] = ['anthropic', 'openai'];

/** One tool use of a turn; `raw` replaces the arguments' JSON (to send broken JSON). */
export interface TurnUse {
  readonly name: string;
  readonly input: unknown;
  readonly raw?: string;
}

/** A model turn: text and/or tool uses, usage (default 100 in, 20 out), an optional delay. */
export interface Turn {
  readonly text?: string;
  readonly uses?: readonly TurnUse[];
  readonly usage?: { readonly input?: number; readonly output?: number; readonly cached?: number };
  readonly delayMs?: number;
}

/** An error answer; `retryAfterSeconds` becomes each API's retry header. */
export interface TurnError {
  readonly error: {
    readonly status: number;
    readonly message: string;
    readonly retryAfterSeconds?: number;
  };
}

/** What a test reads of one request, whatever the wire format. */
export interface RequestView {
  /** The system prompt's text. */
  readonly system: string;
  readonly toolNames: readonly string[];
  /** The tools as sent, as JSON. */
  readonly toolsJson: string;
  /** The tool results of the last turn, in order. */
  readonly results: readonly { readonly content: string; readonly isError: boolean }[];
  /** The last turn (what followed the model's last message), as JSON. */
  readonly lastTurn: string;
  /** Every message but the system prompt, as JSON. */
  readonly messages: string;
  /** `tool_choice` (OpenAI) or `undefined`. */
  readonly toolChoice: unknown;
  /** The body as sent. */
  readonly body: AnthropicRequestBody | ChatCompletionsRequestBody;
}

/** One script step. */
export type ScriptTurn = Turn | TurnError | ((request: RequestView) => Turn | TurnError);

/** A scripted endpoint of one adapter. */
export interface ModelEndpoint {
  readonly adapter: Adapter;
  readonly url: string;
  /** Every request so far, as views. */
  readonly requests: readonly RequestView[];
  push(...turns: ScriptTurn[]): void;
  remaining(): number;
  /** A client of this adapter on this endpoint (test key, model "scripted", 2 retries). */
  client(): ModelClient;
  close(): Promise<void>;
}

/** Starts the scripted endpoint of `adapter` on loopback. */
export async function startModelEndpoint(adapter: Adapter): Promise<ModelEndpoint> {
  return adapter === 'anthropic' ? anthropicEndpoint() : openaiEndpoint();
}

/** A turn that uses one meta-tool. */
export const use = (name: string, input: unknown): Turn => ({ uses: [{ name, input }] });
/** A turn that answers in words. */
export const say = (text: string): Turn => ({ text });

async function anthropicEndpoint(): Promise<ModelEndpoint> {
  const server = await startScriptedAnthropicServer();
  const view = (body: AnthropicRequestBody): RequestView => {
    const last = body.messages.at(-1);
    const blocks = Array.isArray(last?.content)
      ? (last.content as { type: string; content?: unknown; is_error?: boolean }[])
      : [];
    // A tool result with images has blocks; its text is what a test reads.
    const text = (content: unknown): string =>
      Array.isArray(content)
        ? (content as { type: string; text?: string }[])
            .filter((b) => b.type === 'text')
            .map((b) => b.text ?? '')
            .join('\n')
        : String(content ?? '');
    const system = body.system;
    return {
      system: Array.isArray(system)
        ? (system as { text: string }[]).map((b) => b.text).join('\n')
        : String(system ?? ''),
      toolNames: (body.tools ?? []).map((t) => t.name),
      toolsJson: JSON.stringify(body.tools ?? []),
      results: blocks
        .filter((b) => b.type === 'tool_result')
        .map((b) => ({ content: text(b.content), isError: b.is_error === true })),
      lastTurn: JSON.stringify(last),
      messages: JSON.stringify(body.messages),
      toolChoice: undefined,
      body,
    };
  };
  const wire = (turn: Turn | TurnError): ScriptedMessage | ScriptedError => {
    if ('error' in turn) {
      const { status, message, retryAfterSeconds } = turn.error;
      const type =
        status === 429
          ? 'rate_limit_error'
          : status === 529
            ? 'overloaded_error'
            : status >= 500
              ? 'api_error'
              : 'invalid_request_error';
      return {
        error: {
          status,
          type,
          message,
          ...(retryAfterSeconds === undefined ? {} : { retryAfterMs: retryAfterSeconds * 1000 }),
        },
      };
    }
    return {
      content: [
        ...(turn.text === undefined ? [] : [{ type: 'text' as const, text: turn.text }]),
        ...(turn.uses ?? []).map((u) => ({
          type: 'tool_use' as const,
          name: u.name,
          // The Messages API carries objects: broken JSON arrives as the text it was.
          input: u.raw ?? u.input,
        })),
      ],
      usage: {
        input_tokens: turn.usage?.input ?? 100,
        output_tokens: turn.usage?.output ?? 20,
        cache_read_input_tokens: turn.usage?.cached ?? 0,
      },
      ...(turn.delayMs === undefined ? {} : { delayMs: turn.delayMs }),
    };
  };
  return endpoint('anthropic', server, view, wire, () =>
    createAnthropicModelClient({
      apiKey: 'test-key-not-secret',
      baseURL: server.url,
      model: 'scripted',
      maxRetries: 2,
    }),
  );
}

async function openaiEndpoint(): Promise<ModelEndpoint> {
  const server = await startScriptedOpenAIServer();
  const view = (body: ChatCompletionsRequestBody): RequestView => {
    const lastAssistant = body.messages.findLastIndex((m) => m.role === 'assistant');
    const turn = body.messages.slice(lastAssistant < 0 ? 1 : lastAssistant + 1);
    return {
      system: body.messages[0]?.role === 'system' ? String(body.messages[0].content) : '',
      toolNames: (body.tools ?? []).map((t) => t.function.name),
      toolsJson: JSON.stringify(body.tools ?? []),
      // Chat Completions has no error flag on tool messages: the error is in the content.
      results: turn
        .filter((m) => m.role === 'tool')
        .map((m) => ({
          content: String(m.content ?? ''),
          isError: String(m.content ?? '').startsWith('{"error":'),
        })),
      lastTurn: JSON.stringify(turn),
      messages: JSON.stringify(body.messages.slice(1)),
      toolChoice: body.tool_choice,
      body,
    };
  };
  const wire = (turn: Turn | TurnError): ScriptedCompletion | ScriptedChatError => {
    if ('error' in turn) {
      const { status, message, retryAfterSeconds } = turn.error;
      return {
        error: {
          status,
          message,
          type: status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : undefined,
          ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
        },
      };
    }
    return {
      content: turn.text ?? null,
      tool_calls: (turn.uses ?? []).map((u) => ({
        name: u.name,
        arguments: u.raw ?? (u.input as object),
      })),
      usage: {
        prompt_tokens: (turn.usage?.input ?? 100) + (turn.usage?.cached ?? 0),
        completion_tokens: turn.usage?.output ?? 20,
        cached_tokens: turn.usage?.cached ?? 0,
      },
      ...(turn.delayMs === undefined ? {} : { delayMs: turn.delayMs }),
    };
  };
  return endpoint('openai', server, view, wire, () =>
    createOpenAIModelClient({
      apiKey: 'test-key-not-secret',
      baseURL: server.url,
      model: 'scripted',
      maxRetries: 2,
    }),
  );
}

// What both endpoints share: requests seen as views, turns written in the wire format.
function endpoint<Body, Step extends object>(
  adapter: Adapter,
  server: ScriptedEndpoint<Body, Step>,
  view: (body: Body) => RequestView,
  wire: (turn: Turn | TurnError) => Step,
  client: () => ModelClient,
): ModelEndpoint {
  return {
    adapter,
    url: server.url,
    get requests() {
      return server.requests.map((r) => view(r.body));
    },
    push: (...turns) =>
      server.push(
        ...turns.map((turn) =>
          typeof turn === 'function'
            ? (request: { body: Body }) => wire(turn(view(request.body)))
            : wire(turn),
        ),
      ),
    remaining: () => server.remaining(),
    client,
    close: () => server.close(),
  };
}
