import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { promised } from '@mcp-agent/core';
import type { CallOptions } from './connection-options.js';
import type { RequestLane } from '@mcp-agent/wire';
import { explainTimeout, ProgressSeen } from './request-timeout.js';

/** A ready session: the SDK's client, and the lane beside it for tool calls (none on `sdk`). */
export interface PooledSession {
  readonly client: Client;
  readonly lane: RequestLane | undefined;
}

const ignoreProgress = (): void => undefined;

/**
 * Runs one request on a ready session with its timeout (reset by progress), its ceiling and
 * the caller's cancellation; a timeout is explained in the error (what was waited for, how long).
 * No async frame of its own: on the request lane the answer passes through one handler only.
 */
export function sendRequest<T>(
  session: PooledSession,
  serverId: string,
  limits: { readonly timeoutMs: number; readonly ceilingMs: number },
  options: CallOptions,
  run: (session: PooledSession, request: RequestOptions) => Promise<T>,
  onLane = false,
): Promise<T> {
  // The SDK adds an abort listener to the signal of every request and never removes it; a
  // per-call signal linked to the caller's keeps a long-lived signal from collecting them. The
  // request lane removes its own: a request on it gets the caller's signal as it is.
  const outer = options.signal;
  if (outer?.aborted) return Promise.reject(outer.reason as Error);
  const linked = outer === undefined || onLane ? undefined : new AbortController();
  const forward = () => linked?.abort(outer?.reason);
  if (linked !== undefined) outer?.addEventListener('abort', forward, { once: true });
  const signal = linked?.signal ?? outer;
  const { timeoutMs, ceilingMs } = limits;
  const seen = new ProgressSeen();
  const explained = (error: unknown): never => {
    throw explainTimeout(error, serverId, { timeoutMs, ceilingMs }, seen);
  };
  const sent = promised(() =>
    run(session, {
      timeout: timeoutMs,
      maxTotalTimeout: ceilingMs,
      ...(signal === undefined ? {} : { signal }),
      // Always a listener: without one the SDK sends no progress token, and the server's
      // progress could not reset the timeout (HTTP-04).
      onprogress: seen.listen(options.onProgress ?? ignoreProgress),
      resetTimeoutOnProgress: true,
    }),
  );
  if (linked === undefined) return sent.catch(explained);
  return sent.catch(explained).finally(() => outer?.removeEventListener('abort', forward));
}

// The spec says 404; some servers (server-everything among them) answer 400 "No valid session
// ID provided" instead, so that counts too.
export function isSessionExpired(error: unknown): boolean {
  if (!(error instanceof StreamableHTTPError)) return false;
  return error.code === 404 || (error.code === 400 && /session/i.test(error.message));
}
