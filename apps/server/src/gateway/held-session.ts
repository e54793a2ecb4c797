import type { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import type { ServerResponse } from 'node:http';
import type { AgentContext, Clock } from '@mcp-agent/core';
import type { GatewaySessionStore } from '@mcp-agent/registry';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { SessionEventStore, SessionTransport } from '@mcp-agent/wire';
import type { Caller } from '../auth/bearer-auth.js';

// Token digests remembered per session (a client refreshing its token uses several).
const MAX_TOKENS_PER_SESSION = 8;
// setTimeout's longest delay (about 24.8 days): a stream of a token valid for longer ends then.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A gateway session this process holds: opened here, or restored from the session store. */
export interface HeldSession {
  /** Its `Mcp-Session-Id`. */
  readonly id: string;
  readonly userId: string;
  /** The digests of the tokens used on this session (the newest few): revoking one closes it. */
  readonly tokens: Set<string>;
  /** Ours over the SDK's, or the SDK's alone (`MCP_AGENT_WIRE=sdk`). */
  readonly transport: SessionTransport | StreamableHTTPServerTransport;
  readonly server: McpServer;
  /** Its events kept for resuming streams, in this process only. */
  readonly events: SessionEventStore;
  /** When the last request arrived or the last response ended. */
  lastSeen: number;
  /** The last use written to the session store. */
  written: number;
  /** Responses still open (an SSE stream being read is not idle). */
  open: number;
}

/**
 * Off the call path: writes the last uses of the `held` sessions to the store (each at most
 * every `touchEvery` ms; an open stream counts as a use now), then gives those that no longer
 * exist there (deleted through another process, or expired and swept), for the caller to close.
 * A failing store is reported to `failed` and changes nothing.
 */
export async function syncHeldSessions(
  held: readonly HeldSession[],
  store: GatewaySessionStore,
  options: {
    readonly now: number;
    readonly touchEvery: number;
    readonly contextOf: (userId: string) => AgentContext;
    readonly failed: (what: string) => (error: unknown) => void;
  },
): Promise<HeldSession[]> {
  const { now, touchEvery, contextOf, failed } = options;
  const touches: Promise<void>[] = [];
  for (const session of held) {
    const used = session.open > 0 ? now : session.lastSeen;
    if (used <= session.written || used - session.written < touchEvery) continue;
    session.written = used;
    touches.push(store.touch(contextOf(session.userId), session.id, used).catch(failed('touch')));
  }
  await Promise.all(touches);
  if (held.length === 0) return [];
  const existing = await store.existing(held.map((s) => s.id)).catch((error: unknown) => {
    failed('existing')(error);
    return undefined;
  });
  return existing === undefined ? [] : held.filter((s) => !existing.has(s.id));
}

/**
 * Counts the response `res` as open on `session` until it ends (an open stream is not idle), and
 * ends it when the caller's token expires.
 */
export function trackResponse(
  session: HeldSession,
  res: ServerResponse,
  caller: Caller,
  clock: Clock,
): void {
  session.open += 1;
  session.lastSeen = clock.now();
  // A response never outlives the token it was opened with: a stream of an expired JWT ends,
  // and the client comes back with a fresh token (or not at all).
  const expiry =
    caller.expiresAt === undefined
      ? undefined
      : setTimeout(
          () => res.destroy(),
          Math.min(Math.max(0, caller.expiresAt * 1000 - Date.now()), MAX_TIMER_MS),
        );
  expiry?.unref();
  res.once('close', () => {
    clearTimeout(expiry);
    session.open -= 1;
    session.lastSeen = clock.now();
  });
}

/** Remembers the caller's token digest on `session`, so that revoking it closes the session. */
export function rememberToken(session: HeldSession, caller: Caller): void {
  session.tokens.delete(caller.tokenDigest);
  session.tokens.add(caller.tokenDigest);
  // A client that refreshes its token keeps its session; only the newest few are remembered.
  if (session.tokens.size > MAX_TOKENS_PER_SESSION)
    session.tokens.delete(session.tokens.values().next().value as string);
}
