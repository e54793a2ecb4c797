import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type {
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  isJSONRPCRequest,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** What {@link SessionTransport} checks before it answers a request itself. */
export interface SessionTransportOptions {
  /** Whether requests are answered as JSON at all (`HttpGatewayOptions.jsonAnswers`). */
  readonly jsonAnswers: boolean;
  /** The largest body read (the SDK transport's `maxRequestBodySize`). */
  readonly maxBodyBytes: number;
  /** Host headers accepted; undefined when the SDK transport checks none. */
  readonly allowedHosts?: readonly string[];
}

/**
 * One gateway session's transport: the SDK's streamable-HTTP transport, except that, when the
 * operator chose `jsonAnswers`, a POST of one request that asked for no progress is answered with
 * a JSON body as soon as its result is ready. Off by default: the SDK's stream starts with a
 * priming event, so a client that loses it resumes it with `Last-Event-ID` and still gets its
 * result (GW-01); a JSON answer lost on the way is lost, and the client must call again.
 *
 * Why: such an answer is one message, and the SDK's way — an SSE stream with a priming event,
 * each event kept in the resume store, the request and response converted to web ones and back
 * through `@hono/node-server` — costs about half of a gateway call (`pnpm bench gateway`). The
 * spec lets a server answer any POST with `application/json`. What stays on the SDK's path:
 * `initialize`, batches, notifications and responses from the client, requests with a
 * `progressToken` (their progress needs a stream), GET streams and their resumption with
 * `Last-Event-ID`, DELETE, and anything the SDK would refuse (wrong Accept, Content-Type, Host,
 * protocol version or size: it answers those with its own errors). A message the server sends
 * about a request answered as JSON other than its result (none does today) goes on the
 * session's GET stream, where it is kept for resumption like any other.
 */
export class SessionTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  readonly #inner: StreamableHTTPServerTransport;
  readonly #options: SessionTransportOptions;
  /** Requests answered as JSON, by id, with the response their result is written to. */
  readonly #answering = new Map<RequestId, ServerResponse>();

  constructor(inner: StreamableHTTPServerTransport, options: SessionTransportOptions) {
    this.#inner = inner;
    this.#options = options;
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  async start(): Promise<void> {
    this.#inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onclose = () => {
      for (const res of this.#answering.values()) res.destroy();
      this.#answering.clear();
      this.onclose?.();
    };
    await this.#inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const response = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
    const id = response ? message.id : options?.relatedRequestId;
    const res = id === undefined ? undefined : this.#answering.get(id);
    if (res === undefined) return this.#inner.send(message, options);
    if (!response) return this.#inner.send(message);
    this.#answering.delete(id as RequestId);
    // A client that went away before its answer: the result has nowhere to go.
    if (res.destroyed) return;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
    res.writeHead(200, headers).end(JSON.stringify(message));
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  /** Handles one HTTP request of this session: answered here as JSON, or by the SDK's transport. */
  async handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.#mayAnswer(req)) return this.#inner.handleRequest(req, res);
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32700, message: 'Parse error: Invalid JSON-RPC message' },
          id: null,
        }),
      );
      return;
    }
    const message = isJSONRPCRequest(body) ? body : undefined;
    if (
      message === undefined ||
      message.method === 'initialize' ||
      message.params?._meta?.progressToken !== undefined ||
      this.#answering.has(message.id)
    )
      return this.#inner.handleRequest(req, res, body);
    // Held until its result is sent, even if the client goes away first (the entry ends then).
    this.#answering.set(message.id, res);
    this.onmessage?.(message, { requestInfo: { headers: req.headers } });
  }

  // The checks the SDK's transport makes first: what fails one is left to it, to refuse.
  #mayAnswer(req: IncomingMessage): boolean {
    const { headers } = req;
    const length = Number(headers['content-length']);
    const accept = headers.accept ?? '';
    const version = headers['mcp-protocol-version'];
    return (
      this.#options.jsonAnswers &&
      req.method === 'POST' &&
      this.sessionId !== undefined &&
      headers['mcp-session-id'] === this.sessionId &&
      headers['content-type']?.split(';')[0]?.trim().toLowerCase() === 'application/json' &&
      accept.includes('application/json') &&
      accept.includes('text/event-stream') &&
      typeof version === 'string' &&
      SUPPORTED_PROTOCOL_VERSIONS.includes(version) &&
      Number.isInteger(length) &&
      length <= this.#options.maxBodyBytes &&
      (this.#options.allowedHosts === undefined ||
        this.#options.allowedHosts.includes(headers.host ?? ''))
    );
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}
