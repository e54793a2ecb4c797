import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  McpError,
  type JSONRPCMessage,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { countWire } from '../wire-activity.js';

/** A request sent on the lane: its method and parameters, as the SDK's `request` takes them. */
export interface LaneRequest {
  /** The JSON-RPC method (`tools/call`). */
  readonly method: string;
  /** Its parameters; the lane adds its progress token to `_meta` when the caller takes progress. */
  readonly params: Record<string, unknown>;
}

// The SDK's client numbers its requests from 0 up, one by one; the lane's start far above, so
// a response or a progress token says whose request it is.
const FIRST_ID = 2 ** 40;

// One request waiting for its answer: settled once, by its answer, its deadline, its caller's
// abort or the connection's close. An object with methods rather than closures per request; it
// is its signal's abort listener itself (`handleEvent`), so nothing else is made to remove it.
class Pending {
  /** When it times out (`performance.now()`, which never jumps); progress may move it on. */
  deadline: number;
  readonly #started: number;

  constructor(
    readonly id: number,
    readonly options: RequestOptions,
    readonly settled: (pending: Pending) => void,
    readonly cancel: (pending: Pending, reason: unknown) => void,
    readonly resolve: (result: unknown) => void,
    readonly reject: (error: unknown) => void,
  ) {
    this.#started = performance.now();
    this.deadline = this.#started + this.timeout;
  }

  get timeout(): number {
    return this.options.timeout ?? 60_000;
  }

  answer(result: unknown): void {
    this.settled(this);
    this.resolve(result);
  }

  fail(error: unknown): void {
    this.settled(this);
    this.reject(error);
  }

  // A progress notification: handed on, and the deadline moved on when asked, within the ceiling.
  progressed(progress: Progress): void {
    this.options.onprogress?.(progress);
    if (this.options.resetTimeoutOnProgress !== true) return;
    const now = performance.now();
    const totalElapsed = Math.round(now - this.#started);
    const ceiling = this.options.maxTotalTimeout;
    if (ceiling !== undefined && totalElapsed >= ceiling) {
      this.cancel(
        this,
        McpError.fromError(ErrorCode.RequestTimeout, 'Maximum total timeout exceeded', {
          maxTotalTimeout: ceiling,
          totalElapsed,
        }),
      );
      return;
    }
    this.deadline = now + this.timeout;
  }

  handleEvent(): void {
    this.cancel(this, this.options.signal?.reason);
  }
}

/**
 * Requests sent beside the SDK's `Client`, on its connected transport: the client's own
 * requests (initialize, tools/list, ping, resources) stay the SDK's, and the lane's responses
 * and progress never reach it. It does what the SDK's `Protocol.request` does with the same
 * `RequestOptions` — a timeout that progress resets, the ceiling checked at each progress, the
 * caller's abort sent to the server as `notifications/cancelled`, the same errors (MCP error
 * -32001 for a timeout or an abort, the server's own code for its error, -32000 when the
 * connection closes) — without what the SDK adds to each: a schema check of every message to
 * route it, a schema parse of the result, its progress one microtask after the response (see
 * `deliverProgressBeforeResponses`: here both are handled as they arrive, in order) and an abort
 * listener left on the caller's signal. Open it after `client.connect(transport)`.
 */
export class RequestLane {
  readonly #transport: Transport;
  readonly #pending = new Map<number, Pending>();
  #nextId = FIRST_ID;
  #closed = false;
  // One timer for every request's deadline, set for the earliest: a request answered in time
  // (nearly all) then costs no timer of its own. Unref'd: what waits keeps the transport open.
  #watchdog: NodeJS.Timeout | undefined;
  #watchedAt = Number.POSITIVE_INFINITY;

  constructor(transport: Transport) {
    this.#transport = transport;
    countWire('requestLanes');
    const sdkMessage = transport.onmessage;
    const sdkClose = transport.onclose;
    transport.onmessage = (message, extra) => {
      if (!this.#take(message)) sdkMessage?.(message, extra);
    };
    transport.onclose = () => {
      this.#closed = true;
      const pending = [...this.#pending.values()];
      this.#pending.clear();
      for (const request of pending)
        request.fail(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'));
      clearTimeout(this.#watchdog);
      sdkClose?.();
    };
  }

  /** How many requests wait for their answer. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Sends one request and resolves with its result, unchecked (the caller checks its shape). */
  request(request: LaneRequest, options: RequestOptions): Promise<unknown> {
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#closed)
      return Promise.reject(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'));
    const id = this.#nextId++;
    countWire('requestLaneRequests');
    const params =
      options.onprogress === undefined
        ? request.params
        : {
            ...request.params,
            _meta: { ...(request.params._meta as object | undefined), progressToken: id },
          };
    return new Promise((resolve, reject) => {
      const pending = new Pending(id, options, this.#settled, this.#cancel, resolve, reject);
      this.#pending.set(id, pending);
      signal?.addEventListener('abort', pending, { once: true });
      this.#watch(pending.deadline);
      this.#transport
        .send({ jsonrpc: '2.0', id, method: request.method, params })
        .catch((error: unknown) => this.#pending.get(id)?.fail(error));
    });
  }

  readonly #settled = (pending: Pending): void => {
    this.#pending.delete(pending.id);
    pending.options.signal?.removeEventListener('abort', pending);
  };

  // Ends a request the caller gave up on (its abort, its deadline): the server is told.
  readonly #cancel = (pending: Pending, reason: unknown): void => {
    if (this.#pending.get(pending.id) !== pending) return;
    this.#transport
      .send({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: pending.id, reason: String(reason) },
      })
      .catch(() => undefined);
    pending.fail(
      reason instanceof McpError ? reason : new McpError(ErrorCode.RequestTimeout, String(reason)),
    );
  };

  // Sets the watchdog for `deadline` when it comes before the one it is set for.
  #watch(deadline: number): void {
    if (deadline >= this.#watchedAt) return;
    clearTimeout(this.#watchdog);
    this.#watchedAt = deadline;
    this.#watchdog = setTimeout(this.#expire, Math.max(0, deadline - performance.now())).unref();
  }

  // The watchdog: times out every request past its deadline, then waits for the next one.
  readonly #expire = (): void => {
    this.#watchdog = undefined;
    this.#watchedAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    for (const pending of [...this.#pending.values()]) {
      if (pending.deadline <= now)
        this.#cancel(
          pending,
          McpError.fromError(ErrorCode.RequestTimeout, 'Request timed out', {
            timeout: pending.timeout,
          }),
        );
      else next = Math.min(next, pending.deadline);
    }
    if (next !== Number.POSITIVE_INFINITY) this.#watch(next);
  };

  // A response or a progress notification of one of the lane's requests: handled here.
  #take(message: JSONRPCMessage): boolean {
    const { id } = message as { id?: unknown };
    // A request of the server's own (its ids are its own) is never an answer to one of these.
    if (typeof id === 'number' && !('method' in message)) {
      if (id < FIRST_ID) return false;
      const pending = this.#pending.get(id);
      // A request settled already (cancelled, timed out): its late answer is dropped.
      if (pending === undefined) return true;
      const { result, error } = message as {
        result?: unknown;
        error?: { code: number; message: string; data?: unknown };
      };
      if (error !== undefined) pending.fail(new McpError(error.code, error.message, error.data));
      else pending.answer(result);
      return true;
    }
    if ((message as { method?: unknown }).method !== 'notifications/progress') return false;
    const params = (message as { params?: Progress & { progressToken?: unknown } }).params;
    const token = params?.progressToken;
    if (typeof token !== 'number' || token < FIRST_ID) return false;
    const pending = this.#pending.get(token);
    if (pending === undefined) return true;
    const { progressToken: _token, ...progress } = params as Progress & { progressToken: number };
    pending.progressed(progress);
    return true;
  }
}
