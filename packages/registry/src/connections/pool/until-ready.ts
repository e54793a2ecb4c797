import { NotReadyError } from '@mcp-agent/core';
import type { ConnectionState } from '../../store/readiness/connection-state.js';
import type { PooledConnection } from './pooled-connection.js';

/**
 * Resolves with each server's state once every connection is ready. Rejects at once when one
 * has failed or was not found (an `Error` in `connections`), at `timeoutMs`, or when `signal`
 * aborts, with a `NotReadyError` listing each server's state and last error.
 */
export async function untilReady(
  serverIds: readonly string[],
  connections: ReadonlyMap<string, PooledConnection | Error>,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<ConnectionState[]> {
  const diagnostics = () =>
    serverIds.map((id) => {
      const entry = connections.get(id);
      if (entry === undefined || entry instanceof Error) {
        return {
          id,
          status: 'not_found',
          attempts: 0,
          lastError: entry?.message ?? 'unknown server',
        };
      }
      const { status, attempts, lastError } = entry.state;
      return { id, status, attempts, lastError };
    });
  const fail = (why: string) => {
    const servers = diagnostics();
    const bad = servers.filter((s) => s.status !== 'ready');
    const summary = bad
      .map((s) => `${s.id}: ${s.status}${s.lastError ? ` (${s.lastError})` : ''}`)
      .join('; ');
    return new NotReadyError(`${why}: ${summary}`, { details: { servers } });
  };
  for (const entry of connections.values()) {
    if (entry instanceof Error) throw fail('A server is not available');
  }
  let timer: NodeJS.Timeout | undefined;
  const aborted = new AbortController();
  try {
    await Promise.race([
      // The first failure rejects the whole wait, with every server's state.
      Promise.all(
        [...connections.values()].map((c) =>
          (c as PooledConnection).ensureReady().catch(() => {
            throw fail('A server failed');
          }),
        ),
      ),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(fail(`Servers were not ready within ${timeoutMs} ms`)),
          timeoutMs,
        );
      }),
      new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener('abort', () => reject(signal.reason), {
          once: true,
          signal: aborted.signal,
        });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    aborted.abort();
  }
  return [...connections.values()].map((c) => (c as PooledConnection).state);
}
