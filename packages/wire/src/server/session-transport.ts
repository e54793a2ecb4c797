import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type {
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  JSONRPCMessage,
  JSONRPCRequest,
  MessageExtraInfo,
  RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { SessionEventStore } from './event-store.js';
import { isSingleRequest, readBody, requestIds } from './request-body.js';
import { mayAnswerPost, passesSessionChecks, sdkReadsUnsized } from './request-checks.js';
import {
  KEEP_ALIVE,
  KEEP_ALIVE_MS,
  messageEvent,
  PRIMING_FROM_VERSION,
  primingEvent,
  sseHeaders,
} from './sse-format.js';

/** What {@link SessionTransport} checks before it answers a request itself. */
export interface SessionTransportOptions {
  /** Answer a request that asked for no progress with a JSON body (`HttpGatewayOptions.jsonAnswers`). */
  readonly jsonAnswers: boolean;
  /** The largest body read (the SDK transport's `maxRequestBodySize`). */
  readonly maxBodyBytes: number;
  /** Host headers accepted; undefined when the SDK transport checks none. */
  readonly allowedHosts?: readonly string[];
  /** The retry interval the priming event tells clients (the SDK transport's `retryInterval`). */
  readonly retryIntervalMs: number;
}

/** A request this transport answers itself, until its response is written. */
interface Answer {
  /** Its stream in the resume store. */
  readonly streamId: string;
  /** Answered with one JSON body, not a stream. */
  readonly json: boolean;
  /** A stream that starts with a priming event (see `PRIMING_FROM_VERSION`). */
  readonly resumable: boolean;
  /** The stream's head was written (see `#opening`). */
  opened: boolean;
  /** Where its events go now: none once the client went away, until it resumes. */
  live: ServerResponse | undefined;
}

// The streams this transport answers on; the SDK's are UUIDs and `_GET_stream`.
const OWN_STREAM = 'answer-';

/**
 * One gateway session's transport: the SDK's streamable-HTTP transport, except for the call path.
 * A POST of one request (not `initialize`) that passes every check the SDK would make is answered
 * here, from the Node request straight to the socket: an SSE stream that starts with a priming
 * event (written once the request is on its way to the server, so the server starts on it first)
 * and carries the request's messages, each kept in the session's resume store once as the
 * string written, or, when the operator chose `jsonAnswers` and the request asked for no
 * progress, one JSON body. A client that lost such a stream resumes it with `GET` and
 * `Last-Event-ID` (GW-01): it gets what followed, then live events, and the stream ends with the
 * response.
 *
 * Why: the SDK's transport converts each request and response to web ones and back through
 * `@hono/node-server`, writes each event on its own, checks the message with a schema parse and
 * serialises each event twice (store and stream): most of what an HTTP call cost more than a
 * stdio one (`pnpm bench gateway`). What stays on the SDK's path: `initialize`, batches,
 * notifications and responses from the client, the GET stream and the resumption of its
 * events, DELETE, and anything the SDK would refuse (wrong Accept, Content-Type, Host, protocol
 * version, session or size: it answers those with its own errors).
 */
export class SessionTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  readonly #inner: StreamableHTTPServerTransport;
  readonly #events: SessionEventStore;
  readonly #options: SessionTransportOptions;
  /** Requests answered here and not yet answered, by id. */
  readonly #answers = new Map<RequestId, Answer>();
  /** The same streams by stream id (JSON answers have none): what a resume finds. */
  readonly #streams = new Map<string, Answer>();
  /**
   * Requests the SDK's transport took and not yet answered nor cancelled: with `#answers`, the
   * one registry of ids in flight, so a reused id is refused whichever path each request takes.
   */
  readonly #sdkRequests = new Set<RequestId>();
  #streamCount = 0;
  #keepAlive: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(
    inner: StreamableHTTPServerTransport,
    events: SessionEventStore,
    options: SessionTransportOptions,
  ) {
    this.#inner = inner;
    this.#events = events;
    this.#options = options;
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  async start(): Promise<void> {
    this.#inner.onmessage = (message, extra) => this.#fromSdk(message, extra);
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onclose = () => {
      this.#closed = true;
      clearInterval(this.#keepAlive);
      // Open streams end as the SDK ends its own; a JSON answer not given is cut.
      for (const answer of this.#answers.values())
        if (answer.json) answer.live?.destroy();
        else answer.live?.end(this.#opening(answer));
      this.#answers.clear();
      this.#streams.clear();
      this.#sdkRequests.clear();
      this.onclose?.();
    };
    await this.#inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    // The server's own messages: a response has no method (nor does anything else).
    const response = !('method' in message);
    const id = response ? (message as { id: RequestId }).id : options?.relatedRequestId;
    const answer = id === undefined ? undefined : this.#answers.get(id);
    if (answer === undefined) {
      if (response) this.#sdkRequests.delete(id as RequestId);
      return this.#inner.send(message, options);
    }
    if (answer.json) {
      // Anything but the result goes on the session's GET stream, kept for resumption there.
      if (!response) return this.#inner.send(message);
      this.#answers.delete(id as RequestId);
      const res = answer.live;
      // A client that went away before its answer: the result has nowhere to go.
      if (res === undefined || res.destroyed) return;
      res
        .writeHead(200, {
          'content-type': 'application/json',
          'mcp-session-id': this.sessionId as string,
        })
        .end(JSON.stringify(message));
      return;
    }
    // Serialised once: the string kept for a resume is the one written.
    const json = JSON.stringify(message);
    // An answer given before its stream was opened (in the turn its request arrived) opens it.
    const opening = this.#opening(answer);
    const event = opening + messageEvent(this.#store(answer, json, response, id), json);
    const res = writable(answer.live);
    if (!response) {
      res?.write(event);
      return;
    }
    this.#answers.delete(id as RequestId);
    this.#streams.delete(answer.streamId);
    answer.live = undefined;
    res?.end(event);
  }

  /** Kept as the stream's answer, within the store's bounds (see `appendAnswer`). */
  #store(answer: Answer, json: string, response: boolean, id: RequestId | undefined): string {
    return response
      ? this.#events.appendAnswer(answer.streamId, json, id as RequestId)
      : this.#events.append(answer.streamId, json, answer.resumable);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  /** Handles one HTTP request of this session: answered here, or by the SDK's transport. */
  async handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'GET') {
      const lastEventId = req.headers['last-event-id'];
      const streamId =
        typeof lastEventId === 'string' ? this.#events.streamOf(lastEventId) : undefined;
      if (
        streamId?.startsWith(OWN_STREAM) === true &&
        passesSessionChecks(req, this.#openId(), this.#options)
      )
        return this.#resume(streamId, lastEventId as string, res);
      return this.#inner.handleRequest(req, res);
    }
    if (req.method !== 'POST') return this.#inner.handleRequest(req, res);
    const mine = mayAnswerPost(req, this.#openId(), this.#options);
    // A body without Content-Length (chunked) goes to the SDK, read here first for its ids.
    if (!mine && !sdkReadsUnsized(req, this.#openId(), this.#options))
      return this.#inner.handleRequest(req, res);
    let body: unknown;
    try {
      const text = await readBody(req, this.#options.maxBodyBytes);
      if (text === undefined) return tooLarge(req, res, this.#options.maxBodyBytes);
      body = JSON.parse(text);
    } catch {
      this.onerror?.(new Error('Parse error: Invalid JSON'));
      jsonError(res, 400, -32700, 'Parse error: Invalid JSON');
      return;
    }
    // Closed while the body was read: the SDK answers that the session is gone.
    if (this.#closed) return this.#inner.handleRequest(req, res, body);
    if (mine && isSingleRequest(body)) {
      if (body.method === 'initialize') return this.#inner.handleRequest(req, res, body);
      if (this.#inFlight(body.id)) return jsonError(res, 409, -32600, stillAnswered(body.id));
      return this.#answer(body, req, res);
    }
    const reused = requestIds(body).find((id) => this.#inFlight(id));
    if (reused !== undefined) return jsonError(res, 409, -32600, stillAnswered(reused));
    return this.#inner.handleRequest(req, res, body);
  }

  // Whether a request id is being answered in this session, on either path.
  #inFlight(id: RequestId): boolean {
    return this.#answers.has(id) || this.#sdkRequests.has(id);
  }

  // What the SDK's transport hands on: its requests are registered in flight (one taken
  // meanwhile with the same id is refused on the stream the SDK opened for it), and a
  // cancellation releases what its request holds.
  #fromSdk(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const { method, id } = message as { method?: unknown; id?: RequestId };
    if (typeof method === 'string' && id !== undefined) {
      if (this.#inFlight(id)) {
        const refusal = {
          jsonrpc: '2.0' as const,
          id,
          error: { code: -32600, message: stillAnswered(id) },
        };
        this.#inner.send(refusal).catch((error: unknown) => this.onerror?.(error as Error));
        return;
      }
      this.#sdkRequests.add(id);
    }
    this.onmessage?.(message, extra);
    if (method === 'notifications/cancelled') {
      const params = (message as { params?: { requestId?: unknown } }).params;
      const requestId = params?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') this.#release(requestId);
    }
  }

  // A cancelled request (GW-08): the server answers nothing (the MCP rule), so everything its
  // answer held goes now: its id (free to be used again), its stream (ended: nothing more will
  // come on it) and its stored events (a resume from them gets the SDK's 400).
  #release(id: RequestId): void {
    if (this.#sdkRequests.delete(id)) {
      // The SDK would hold its stream open for ever.
      this.#inner.closeSSEStream(id);
      return;
    }
    const answer = this.#answers.get(id);
    if (answer === undefined) return;
    this.#answers.delete(id);
    this.#streams.delete(answer.streamId);
    this.#events.dropStream(answer.streamId);
    const live = writable(answer.live);
    answer.live = undefined;
    if (live === undefined) return;
    if (answer.json) live.writeHead(204).end();
    else if (answer.opened) live.end();
    else live.writeHead(200, sseHeaders(this.sessionId as string)).end();
  }

  #answer(message: JSONRPCRequest, req: IncomingMessage, res: ServerResponse): void {
    const progress = message.params?._meta?.progressToken !== undefined;
    const json = this.#options.jsonAnswers && !progress;
    const answer: Answer = {
      streamId: `${OWN_STREAM}${(this.#streamCount += 1)}`,
      json,
      // Checked supported in mayAnswerPost; versions are dates, so they compare as strings.
      resumable: !json && (req.headers['mcp-protocol-version'] as string) >= PRIMING_FROM_VERSION,
      opened: json,
      live: res,
    };
    this.#answers.set(message.id, answer);
    res.once('close', () => {
      if (answer.live === res) answer.live = undefined;
    });
    const resumable = answer.resumable;
    if (!json) {
      this.#streams.set(answer.streamId, answer);
      this.#keepAlive ??= setInterval(() => this.#ping(), KEEP_ALIVE_MS).unref();
    }
    try {
      this.onmessage?.(message, {
        requestInfo: { headers: req.headers },
        // A handler may end the stream early: the client then resumes it, as from a lost one.
        ...(resumable
          ? {
              closeSSEStream: () => {
                const opening = this.#opening(answer);
                const live = answer.live;
                answer.live = undefined;
                live?.end(opening);
              },
              closeStandaloneSSEStream: () => this.#inner.closeStandaloneSSEStream(),
            }
          : {}),
      });
    } finally {
      // Opened once the request is on its way: on the hot path the server has it already, and
      // the client sets up its reader of the stream while the server works, not before.
      if (!answer.opened) {
        const opening = this.#opening(answer);
        const live = writable(answer.live);
        if (opening === '') live?.flushHeaders();
        else live?.write(opening);
      }
    }
  }

  // A resume of one of this transport's streams: what followed `lastEventId`, then live events
  // until the response when it is still to come. The newest connection wins: a client whose
  // old connection died unnoticed gets its stream back, and the old one ends.
  #resume(streamId: string, lastEventId: string, res: ServerResponse): void {
    const answer = this.#streams.get(streamId);
    writable(answer?.live)?.end();
    let replay = '';
    for (const [eventId, json] of this.#events.eventsAfter(lastEventId))
      replay += messageEvent(eventId, json);
    // Answered, and the client has had the last event: nothing follows, ever. An empty stream
    // would have the SDK's client (which takes an error answer for no answer) resume it again
    // every second; with no body at all it stops.
    if (answer === undefined && replay === '') {
      res.writeHead(204, { 'mcp-session-id': this.sessionId as string }).end();
      return;
    }
    res.writeHead(200, sseHeaders(this.sessionId as string));
    // Answered already: the response was among the events replayed.
    if (answer === undefined) {
      res.end(replay);
      return;
    }
    answer.live = res;
    res.once('close', () => {
      if (answer.live === res) answer.live = undefined;
    });
    if (replay === '') res.flushHeaders();
    else res.write(replay);
  }

  #ping(): void {
    for (const answer of this.#streams.values())
      if (answer.opened) writable(answer.live)?.write(KEEP_ALIVE);
  }

  // Writes the head of an answer stream (sent with the first write after it) and gives what must
  // come first on it: its priming event, stored for a resume, or nothing. Once per stream.
  #opening(answer: Answer): string {
    if (answer.opened) return '';
    answer.opened = true;
    writable(answer.live)?.writeHead(200, sseHeaders(this.sessionId as string));
    if (!answer.resumable) return '';
    // Kept whatever its age while the call runs: the point a client resumes from.
    const primingId = this.#events.append(answer.streamId, '{}', true);
    return primingEvent(primingId, this.#options.retryIntervalMs);
  }

  // This session's id while it is open: undefined before it is initialized and once closed.
  #openId(): string | undefined {
    return this.#closed ? undefined : this.sessionId;
  }
}

// A response still open for writing, or undefined.
const writable = (res: ServerResponse | undefined): ServerResponse | undefined =>
  res !== undefined && !res.writableEnded && !res.destroyed ? res : undefined;

const stillAnswered = (id: RequestId) =>
  `Invalid Request: a request with id ${JSON.stringify(id)} is still being answered in this session; send each request with a new id.`;

// A body past the bound, as the SDK words it; the connection closes once the answer is out, and
// what the client still sends meanwhile (for at most half a second) is read and dropped.
function tooLarge(req: IncomingMessage, res: ServerResponse, maxBytes: number): void {
  res.setHeader('connection', 'close');
  jsonError(res, 413, -32000, `Payload Too Large: Request body must not exceed ${maxBytes} bytes`);
  req.resume();
  setTimeout(() => req.destroy(), 500).unref();
}

function jsonError(res: ServerResponse, status: number, code: number, message: string): void {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
