// The gateway's streamable-HTTP endpoint: authentication, per-user admission under the cap,
// routing a request to the session it names (held here or restored from the store), revocation,
// and the timers that write sessions' uses behind and expire idle ones. What one session is made
// of is session-build.ts; serving it on its own HTTP server, serve-http-gateway.ts.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createContext,
  parseUserId,
  silentLogger,
  systemClock,
  type Clock,
  type Logger,
  type UserId,
} from '@mcp-agent/core';
import type { AgentStack, DurableTasks } from '@mcp-agent/agent';
import type { GatewaySessionStore } from '@mcp-agent/registry';
import { authenticateBearer, isCaller, type Caller } from '../auth/bearer-auth.js';
import { resourceMetadataUrl } from '../auth/protected-resource.js';
import { MemoryEventStore, type WireMode } from '@mcp-agent/wire';
import { resolveServerLimits, type ServerLimits } from '../server-limits.js';
import {
  rememberToken,
  syncHeldSessions,
  trackResponse,
  type HeldSession,
} from './held-session.js';
import { recordInitialize, replayInitialize } from './session-restore.js';
import { buildSession, type SessionBuildDeps } from './session-build.js';
import type { TokenVerifier } from '../auth/token-verifier.js';

// A session's last use is written behind, at most this often (or a quarter of the idle time).
const TOUCH_MS = 60_000;
// How often a process writes those uses and checks that the sessions it holds still exist.
const SYNC_MS = 5_000;
// The answer to a resume of a stream this process keeps no events of.
const STREAM_NOT_KEPT =
  "Stream not resumable here: the events after this Last-Event-ID are not kept by this gateway process (another process sent them and has stopped, or they expired or passed the resume store's bounds). Send the request again; open the GET stream without Last-Event-ID.";
// The longest session id looked up in the database: the gateway's are UUIDs.
const MAX_SESSION_ID_CHARS = 200;

/** Options of {@link createHttpGateway}. */
export interface HttpGatewayOptions {
  /** The stack every session's meta-tools and tasks run on. */
  readonly stack: AgentStack;
  /**
   * Multi-tenant: maps each request's bearer token to its user. When it announces revoked tokens
   * (`onRevoke`), the sessions they were used on are closed.
   */
  readonly verifier?: TokenVerifier;
  /**
   * The URL of the gateway's protected-resource metadata, named in every 401: by default
   * `http://<Host>/.well-known/oauth-protected-resource/mcp`; behind a proxy, from the public URL.
   */
  readonly resourceMetadataUrl?: (req: IncomingMessage) => string;
  /**
   * Single-user mode (a loopback gateway for one person): no token, this user (a canonical id,
   * checked when the gateway starts: core's `parseUserId`).
   */
  readonly singleUser?: UserId | string;
  /** Host headers accepted (DNS-rebinding protection), e.g. `127.0.0.1:8080`. */
  readonly allowedHosts?: readonly string[];
  /** Origins accepted from browsers; a request with any other Origin gets 403. */
  readonly allowedOrigins?: readonly string[];
  /** Where refusals and failures go; default none. */
  readonly logger?: Logger;
  /** Sessions per user, idle expiry, body size and the resume store's bounds. */
  readonly limits?: ServerLimits;
  /** The clock idle expiry is measured on; a manual one in tests. */
  readonly clock?: Clock;
  /** Where execute_task runs tasks (see `GatewayServerOptions.tasks`). */
  readonly tasks?: DurableTasks;
  /**
   * Answer a POST of one request without a `progressToken` with a JSON body instead of a
   * resumable SSE stream (see `SessionTransport`): a little faster, but a client that loses such
   * a response cannot resume it. Off by default.
   */
  readonly jsonAnswers?: boolean;
  /**
   * `lanes` (default): the call path served by `SessionTransport` and the call lane. `sdk`
   * (`MCP_AGENT_WIRE=sdk`): every request through the SDK's `StreamableHTTPServerTransport` and
   * `Server` alone (`jsonAnswers` then does not apply: the SDK answers with streams).
   */
  readonly wire?: WireMode;
  /**
   * Where sessions are kept so that any process serves a session's next request (default: the
   * stack's registry, `registry.gatewaySessions`): a process given a session id it does not hold
   * loads it from here, and the per-user cap counts the sessions stored.
   */
  readonly sessionStore?: GatewaySessionStore;
}

/** The gateway's streamable-HTTP endpoint, as a request handler for any Node HTTP server. */
export interface HttpGateway {
  /** Answers one request to the endpoint (POST, GET for a stream, DELETE to end a session). */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Open sessions, for status views and tests. */
  readonly sessions: number;
  /** What the gateway holds: sessions, and the resume store's events and bytes. */
  stats(): {
    /** Sessions open. */
    sessions: number;
    /** Events kept for resuming streams. */
    events: number;
    /** Their size in bytes. */
    eventBytes: number;
  };
  /**
   * Closes every session idle for the idle timeout and releases what it holds (transport,
   * server, stored events), and drops the stored events past the resume store's `maxAgeMs`;
   * returns how many sessions closed. Runs on a timer; callable at any time.
   */
  expireIdleSessions(): Promise<number>;
  /**
   * Writes the last uses of the sessions held here to the session store (behind: each at most
   * once a minute, or a quarter of the idle time), and closes the held sessions that no longer
   * exist there (deleted through another process, or expired). Runs every few seconds.
   */
  syncSessions(): Promise<void>;
  /** Writes the sessions' last uses, closes every session here (they stay stored) and stops the timers. */
  close(): Promise<void>;
}

/**
 * The MCP gateway over streamable HTTP. Multi-tenant: every request is authenticated (bearer
 * token → user), every session is bound to the user who opened it, and another user's session
 * id gets the same 404 as an unknown one. Origin and Host are validated (DNS-rebinding
 * protection); streams are resumable through a bounded store of each session's own events.
 * Sessions per user are capped and idle ones expire. Sessions are kept in the session store
 * too, so that any process on the same database serves a session's next request: one given a
 * session id it does not hold loads the session, rebuilds it and answers (no sticky routing).
 */
export function createHttpGateway(options: HttpGatewayOptions): HttpGateway {
  const limits = resolveServerLimits(options.limits);
  const clock = options.clock ?? systemClock;
  const store = options.sessionStore ?? options.stack.registry.gatewaySessions;
  const logger = options.logger ?? silentLogger;
  const sessions = new Map<string, HeldSession>();
  // Sessions being restored, by user and id: concurrent requests of one wait for one restore.
  const restoring = new Map<string, Promise<HeldSession | undefined>>();
  const eventStore = new MemoryEventStore(limits.eventStore, clock);
  const touchEvery = Math.min(TOUCH_MS, Math.max(1, Math.floor(limits.sessionIdleMs / 4)));
  const contextOf = (userId: string) => createContext({ userId, clock });
  const json = (
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const rpcError = (code: number, message: string) => ({
    jsonrpc: '2.0',
    error: { code, message },
    id: null,
  });
  const track = (session: HeldSession, res: ServerResponse, caller: Caller) =>
    trackResponse(session, res, caller, clock);
  const idleFor =
    limits.sessionIdleMs >= 60_000
      ? `${Math.round(limits.sessionIdleMs / 60_000)} min`
      : `${Math.round(limits.sessionIdleMs / 1_000)} s`;
  const sweep = setInterval(
    () => void expireIdleSessions(),
    Math.min(limits.sessionIdleMs, 60_000),
  );
  sweep.unref();
  const sync = setInterval(() => void syncSessions(), Math.min(SYNC_MS, touchEvery));
  sync.unref();
  const storeFailed = (what: string) => (error: unknown) =>
    logger.warn({ error: (error as Error).message }, `gateway session store: ${what} failed`);

  const metadataUrl =
    options.resourceMetadataUrl ??
    ((req: IncomingMessage) =>
      resourceMetadataUrl(`http://${req.headers.host ?? 'localhost'}`, '/mcp'));
  // Neither a verifier nor a single user: nobody gets in (an empty token list).
  const verifier: TokenVerifier = options.verifier ?? { verify: async () => undefined };
  const singleUser = options.singleUser === undefined ? undefined : parseUserId(options.singleUser);

  async function authenticate(req: IncomingMessage, res: ServerResponse) {
    if (singleUser !== undefined) return { userId: singleUser, tokenDigest: '' } satisfies Caller;
    const outcome = await authenticateBearer(req.headers.authorization, verifier, {
      resourceMetadataUrl: () => metadataUrl(req),
      logger,
    });
    if (isCaller(outcome)) return outcome;
    json(res, outcome.status, rpcError(-32001, outcome.message), { ...outcome.headers });
    return undefined;
  }

  // A revoked token's sessions close, and with them their open streams; their stored rows go
  // too, so that no other process restores them.
  const stopListening = verifier.onRevoke?.((digests) => {
    const closing = [...sessions.values()].filter((s) => [...s.tokens].some((t) => digests.has(t)));
    for (const session of closing) {
      void session.server.close().catch(() => undefined);
      void store.remove(contextOf(session.userId), session.id).catch(storeFailed('remove'));
    }
    if (closing.length > 0)
      logger.info({ sessions: closing.length }, 'sessions of revoked tokens closed');
  });

  async function expireIdleSessions(): Promise<number> {
    // Stored events past their age go too, in the sessions that stay.
    eventStore.expire();
    const now = clock.now();
    const idle = [...sessions.values()].filter(
      (s) => s.open === 0 && now - s.lastSeen >= limits.sessionIdleMs,
    );
    // Closing the server closes its transport, whose onclose releases the rest.
    await Promise.all(idle.map((s) => s.server.close().catch(() => undefined)));
    // Stored sessions idle on every process (their last use is written behind: the margin).
    await store.sweep(now - limits.sessionIdleMs - touchEvery).catch(storeFailed('sweep'));
    return idle.length;
  }

  // Off the call path (see syncHeldSessions); a session closed meanwhile is left as it is.
  async function syncSessions(): Promise<void> {
    const gone = await syncHeldSessions([...sessions.values()], store, {
      now: clock.now(),
      touchEvery,
      contextOf,
      failed: storeFailed,
    });
    await Promise.all(
      gone
        .filter((s) => sessions.get(s.id) === s)
        .map((s) => s.server.close().catch(() => undefined)),
    );
  }

  // What every session here is built from (see buildSession).
  const parts: SessionBuildDeps = {
    options,
    maxBodyBytes: limits.maxBodyBytes,
    clock,
    store,
    sessions,
    eventStore,
    contextOf,
    storeFailed,
    track,
  };

  async function openSession(req: IncomingMessage, res: ServerResponse, caller: Caller) {
    const id = randomUUID();
    const ctx = contextOf(caller.userId);
    // Admitted under the cap counted over every process's stored sessions.
    const admission = await store.admit(ctx, id, {
      maxPerUser: limits.maxSessionsPerUser,
      idleMs: limits.sessionIdleMs,
    });
    if (!admission.admitted) {
      json(
        res,
        429,
        rpcError(
          -32000,
          `Too many sessions: this user has ${admission.open} open, the most allowed (maxSessionsPerUser). Close one (DELETE /mcp with its Mcp-Session-Id), or wait: a session idle for ${idleFor} expires.`,
        ),
        { 'retry-after': '60' },
      );
      return;
    }
    const { sdkTransport, transport, server, holder } = buildSession(
      parts,
      caller,
      id,
      undefined,
      res,
    );
    await server.connect(transport);
    // What the client said at initialize is stored before it has the answer (so its next
    // request may go to any process).
    const stopRecording = recordInitialize(transport, (settled) =>
      store.initialized(ctx, id, settled).catch(storeFailed('initialized')),
    );
    try {
      await sdkTransport.handleRequest(req, res);
    } finally {
      stopRecording();
      // Not an initialize that succeeded (a bad or refused request): nothing is kept.
      if (holder.session === undefined) {
        await server.close().catch(() => undefined);
        await store.remove(ctx, id).catch(storeFailed('remove'));
      }
    }
  }

  // A session this process does not hold: loaded from the store when it is the caller's and
  // live, rebuilt and registered; undefined otherwise (and logged when it is another user's).
  function restore(
    id: string,
    caller: Caller,
    req: IncomingMessage,
  ): Promise<HeldSession | undefined> {
    const key = `${caller.userId}\n${id}`;
    let pending = restoring.get(key);
    if (pending === undefined) {
      pending = load(id, caller, req).finally(() => restoring.delete(key));
      restoring.set(key, pending);
    }
    return pending;
  }

  async function load(id: string, caller: Caller, req: IncomingMessage) {
    if (id.length > MAX_SESSION_ID_CHARS) return undefined;
    const ctx = contextOf(caller.userId);
    const record = await store.find(ctx, id, limits.sessionIdleMs);
    if (record === undefined) {
      if (await store.heldByAnother(ctx, id).catch(() => false)) refusedAnother(caller);
      return undefined;
    }
    const { sdkTransport, transport, server, holder } = buildSession(parts, caller, id, record);
    await server.connect(transport);
    const answered = await replayInitialize(sdkTransport, record, {
      host: req.headers.host ?? options.allowedHosts?.[0] ?? 'localhost',
    }).catch((error: unknown) => {
      logger.error({ error: (error as Error).message }, 'gateway session not restored');
      return false;
    });
    if (!answered || holder.session === undefined) {
      await server.close().catch(() => undefined);
      return undefined;
    }
    return holder.session;
  }

  // Another user's session id: the caller is answered as for an unknown one; the operator is
  // told, with who asked and never the id.
  const refusedAnother = (caller: Caller) =>
    logger.warn(
      { userId: caller.userId },
      'a gateway session id of another user was presented: answered 404 as an unknown one',
    );

  return {
    get sessions() {
      return sessions.size;
    },
    stats() {
      const { events, bytes } = eventStore.stats();
      return { sessions: sessions.size, events, eventBytes: bytes };
    },
    expireIdleSessions,
    syncSessions,
    async handle(req, res) {
      const origin = req.headers.origin;
      if (origin !== undefined && !(options.allowedOrigins ?? []).includes(origin)) {
        json(res, 403, rpcError(-32000, 'Forbidden: this Origin may not use the gateway.'));
        return;
      }
      const caller = await authenticate(req, res);
      if (caller === undefined) return;
      const sessionId = req.headers['mcp-session-id'];
      if (typeof sessionId !== 'string') {
        await openSession(req, res, caller);
        return;
      }
      const session = sessions.get(sessionId) ?? (await restore(sessionId, caller, req));
      // Another user's session looks exactly like a missing one.
      if (session === undefined || session.userId !== caller.userId) {
        if (session !== undefined) refusedAnother(caller);
        json(res, 404, rpcError(-32001, 'Session not found'));
        return;
      }
      // A resume of a stream whose events this process does not keep (it was sent by another,
      // which stopped, or they expired): a refusal that says so, never a silent gap.
      const lastEventId = req.headers['last-event-id'];
      if (
        req.method === 'GET' &&
        typeof lastEventId === 'string' &&
        session.events.streamOf(lastEventId) === undefined
      ) {
        json(res, 400, rpcError(-32000, STREAM_NOT_KEPT));
        return;
      }
      // Ended for every process before it is answered, so that none restores it after.
      if (req.method === 'DELETE')
        await store.remove(contextOf(session.userId), session.id).catch(storeFailed('remove'));
      rememberToken(session, caller);
      track(session, res, caller);
      await session.transport.handleRequest(req, res);
    },
    async close() {
      clearInterval(sweep);
      clearInterval(sync);
      stopListening?.();
      // The last uses are written first: the sessions go on on other processes (a restart).
      await syncSessions().catch(() => undefined);
      await Promise.all([...sessions.values()].map((s) => s.server.close().catch(() => undefined)));
      sessions.clear();
    },
  };
}
