import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One recorded request to the scripted server. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed JSON body of a Messages API request. */
  readonly body: {
    readonly model: string;
    readonly max_tokens: number;
    readonly system?: unknown;
    readonly messages: readonly { role: string; content: unknown }[];
    readonly tools?: readonly { name: string; description?: string; input_schema: unknown }[];
  };
}

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
export type ScriptStep =
  ScriptedMessage | ScriptedError | ((request: RecordedRequest) => ScriptedMessage | ScriptedError);

/** A running scripted server. */
export interface ScriptedAnthropicServer {
  /** The base URL to give the SDK (`ANTHROPIC_BASE_URL`). */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Appends steps to the script. */
  push(...steps: ScriptStep[]): void;
  /** Steps not yet played. */
  remaining(): number;
  close(): Promise<void>;
}

/**
 * An Anthropic-compatible Messages API on loopback that plays a script of responses (text,
 * tool_use, stop reasons, usage, and errors such as 429 and 529) and records every request, so
 * agent tests drive the real `@anthropic-ai/sdk` over real HTTP. A request past the end of the
 * script gets a 500 that says so.
 */
export async function startScriptedAnthropicServer(
  script: readonly ScriptStep[] = [],
): Promise<ScriptedAnthropicServer> {
  const steps = [...script];
  const requests: RecordedRequest[] = [];
  let counter = 0;
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = req.url ?? '/';
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': `req_${++counter}`,
        ...headers,
      });
      res.end(JSON.stringify(payload));
    };
    if (req.method !== 'POST' || !path.startsWith('/v1/messages')) {
      send(404, {
        type: 'error',
        error: { type: 'not_found_error', message: `no route ${req.method} ${path}` },
      });
      return;
    }
    let parsed: RecordedRequest['body'];
    try {
      parsed = JSON.parse(body) as RecordedRequest['body'];
    } catch {
      send(400, {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'body is not JSON' },
      });
      return;
    }
    const recorded: RecordedRequest = {
      method: req.method,
      path,
      headers: req.headers,
      body: parsed,
    };
    requests.push(recorded);
    const next = steps.shift();
    const step = typeof next === 'function' ? next(recorded) : next;
    if (step === undefined) {
      send(
        500,
        {
          type: 'error',
          error: { type: 'api_error', message: 'the scripted server has no more steps' },
        },
        { 'x-should-retry': 'false' },
      );
      return;
    }
    if ('error' in step) {
      const headers: Record<string, string> = {};
      if (step.error.retryAfterMs !== undefined)
        headers['retry-after-ms'] = String(step.error.retryAfterMs);
      send(
        step.error.status,
        { type: 'error', error: { type: step.error.type, message: step.error.message } },
        headers,
      );
      return;
    }
    if (step.delayMs !== undefined) {
      const delay = step.delayMs;
      const closed = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), delay);
        req.once('close', () => {
          if (!res.writableEnded) {
            clearTimeout(timer);
            resolve(true);
          }
        });
      });
      if (closed) return;
    }
    const content = step.content.map((block, index) =>
      block.type === 'tool_use'
        ? {
            type: 'tool_use',
            id: block.id ?? `toolu_${counter}_${index}`,
            name: block.name,
            input: block.input,
          }
        : block,
    );
    send(200, {
      id: `msg_${counter + 1}`,
      type: 'message',
      role: 'assistant',
      model: parsed.model,
      content,
      stop_reason:
        step.stop_reason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'),
      stop_sequence: null,
      usage: {
        input_tokens: 100,
        output_tokens: 20,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
        ...step.usage,
      },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    push: (...more) => {
      steps.push(...more);
    },
    remaining: () => steps.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
