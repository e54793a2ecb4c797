import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  McpError,
  type JSONRPCMessage,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';

/** A request sent on the lane: its method and parameters, as the SDK's `request` takes them. */
export interface LaneRequest {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

// The SDK's client numbers its requests from 0 up, one by one; the lane's start far above, so
// a response or a progress token says whose request it is.
const FIRST_ID = 2 ** 40;

interface Pending {
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: unknown) => void;
  readonly onProgress: ((progress: Progress) => void) | undefined;
  progressed: () => void;
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

  constructor(transport: Transport) {
    this.#transport = transport;
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
        request.reject(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'));
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
    const onProgress = options.onprogress;
    const params =
      onProgress === undefined
        ? request.params
        : {
            ...request.params,
            _meta: { ...(request.params._meta as object | undefined), progressToken: id },
          };
    return new Promise((resolve, reject) => {
      const timeout = options.timeout ?? 60_000;
      const started = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const settle = () => {
        this.#pending.delete(id);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const cancel = (reason: unknown) => {
        if (!this.#pending.has(id)) return;
        settle();
        this.#transport
          .send({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: id, reason: String(reason) },
          })
          .catch(() => undefined);
        reject(
          reason instanceof McpError
            ? reason
            : new McpError(ErrorCode.RequestTimeout, String(reason)),
        );
      };
      const onTimeout = () =>
        cancel(McpError.fromError(ErrorCode.RequestTimeout, 'Request timed out', { timeout }));
      const onAbort = () => cancel(signal?.reason);
      this.#pending.set(id, {
        resolve: (result) => {
          settle();
          resolve(result);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
        onProgress,
        progressed: () => {
          if (options.resetTimeoutOnProgress !== true) return;
          const totalElapsed = Date.now() - started;
          const ceiling = options.maxTotalTimeout;
          if (ceiling !== undefined && totalElapsed >= ceiling) {
            cancel(
              McpError.fromError(ErrorCode.RequestTimeout, 'Maximum total timeout exceeded', {
                maxTotalTimeout: ceiling,
                totalElapsed,
              }),
            );
            return;
          }
          clearTimeout(timer);
          timer = setTimeout(onTimeout, timeout);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      timer = setTimeout(onTimeout, timeout);
      this.#transport
        .send({ jsonrpc: '2.0', id, method: request.method, params })
        .catch((error: unknown) => this.#pending.get(id)?.reject(error));
    });
  }

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
      if (error !== undefined) pending.reject(new McpError(error.code, error.message, error.data));
      else pending.resolve(result);
      return true;
    }
    if ((message as { method?: unknown }).method !== 'notifications/progress') return false;
    const params = (message as { params?: Progress & { progressToken?: unknown } }).params;
    const token = params?.progressToken;
    if (typeof token !== 'number' || token < FIRST_ID) return false;
    const pending = this.#pending.get(token);
    if (pending === undefined) return true;
    const { progressToken: _token, ...progress } = params as Progress & { progressToken: number };
    pending.onProgress?.(progress);
    pending.progressed();
    return true;
  }
}
