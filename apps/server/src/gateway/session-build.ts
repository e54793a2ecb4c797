// The parts of one gateway session (the SDK transport, the transport chosen by the wire mode
// over it, and the session's MCP server sharing its state through the session store), built
// for a new session or for one another process opened. Apart from http-gateway.ts, which admits,
// routes and expires sessions: this is what one session is made of.
import type { ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AgentContext, Clock } from '@mcp-agent/core';
import type { GatewaySessionRecord, GatewaySessionStore } from '@mcp-agent/registry';
import { SessionTransport, type MemoryEventStore, type SessionEventStore } from '@mcp-agent/wire';
import type { Caller } from '../auth/bearer-auth.js';
import { createGatewayServer } from './gateway-server.js';
import type { HeldSession } from './held-session.js';
import type { HttpGatewayOptions } from './http-gateway.js';

// Priming events carry a retry interval, so a client that loses a stream resumes it.
const RETRY_INTERVAL_MS = 1_000;

/** What every session of one gateway is built from. */
export interface SessionBuildDeps {
  readonly options: Pick<
    HttpGatewayOptions,
    'stack' | 'logger' | 'tasks' | 'wire' | 'jsonAnswers' | 'allowedHosts' | 'allowedOrigins'
  >;
  /** Request bodies are refused with 413 past this. */
  readonly maxBodyBytes: number;
  readonly clock: Clock;
  readonly store: GatewaySessionStore;
  /** The gateway's held sessions: a session registers here once initialized, and leaves on close. */
  readonly sessions: Map<string, HeldSession>;
  readonly eventStore: MemoryEventStore;
  readonly contextOf: (userId: string) => AgentContext;
  readonly storeFailed: (what: string) => (error: unknown) => void;
  /** Counts `res` as open on the session until it ends. */
  readonly track: (session: HeldSession, res: ServerResponse, caller: Caller) => void;
}

/**
 * The SDK transport, our transport over it and the session's server, for a new session
 * (`restored` undefined; its initialize's response `res` is tracked from the start) or one
 * another process opened; `onsessioninitialized` registers it in `deps.sessions` and fills
 * `holder.session`.
 */
export function buildSession(
  deps: SessionBuildDeps,
  caller: Caller,
  id: string,
  restored: GatewaySessionRecord | undefined,
  res?: ServerResponse,
) {
  const { options, maxBodyBytes, clock, store, sessions, storeFailed } = deps;
  const { userId } = caller;
  const ctx = deps.contextOf(userId);
  const events: SessionEventStore = deps.eventStore.forSession();
  const holder: { session?: HeldSession } = {};
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    events.dispose();
    if (sessions.get(id) === holder.session) sessions.delete(id);
  };
  const sdkTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => id,
    eventStore: events,
    maxRequestBodySize: maxBodyBytes,
    retryInterval: RETRY_INTERVAL_MS,
    ...(options.allowedHosts === undefined
      ? {}
      : {
          enableDnsRebindingProtection: true,
          allowedHosts: [...options.allowedHosts],
          allowedOrigins: [...(options.allowedOrigins ?? [])],
        }),
    onsessioninitialized: () => {
      const now = clock.now();
      holder.session = {
        id,
        userId,
        tokens: new Set([caller.tokenDigest]),
        transport,
        server,
        events,
        lastSeen: now,
        // A restored session's use now is written at the next sync (its row has an older one).
        written: restored?.lastUsedAt ?? now,
        open: 0,
      };
      sessions.set(id, holder.session);
      if (res !== undefined) deps.track(holder.session, res, caller);
    },
  });
  const transport =
    options.wire === 'sdk'
      ? sdkTransport
      : new SessionTransport(sdkTransport, events, {
          maxBodyBytes,
          retryIntervalMs: RETRY_INTERVAL_MS,
          jsonAnswers: options.jsonAnswers === true,
          ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
        });
  const server = createGatewayServer({
    stack: options.stack,
    userId,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.tasks === undefined ? {} : { tasks: options.tasks }),
    ...(options.wire === undefined ? {} : { wire: options.wire }),
    sharing: {
      described: restored?.described ?? [],
      searchScope: restored?.searchScope ?? '',
      shared: {
        described: (toolIds) => store.addDescribed(ctx, id, toolIds),
        load: () => store.described(ctx, id),
      },
      scoped: (scope) =>
        void store.setSearchScope(ctx, id, scope).catch(storeFailed('setSearchScope')),
    },
  });
  transport.onclose = () => {
    release();
    void server.close();
  };
  return { sdkTransport, transport, server, holder };
}
