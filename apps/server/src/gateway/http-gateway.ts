import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
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
import type { GatewaySessionRecord, GatewaySessionStore } from '@mcp-agent/registry';
import { authenticateBearer, isCaller, type Caller } from '../auth/bearer-auth.js';
import {
  PROTECTED_RESOURCE_PATH,
  protectedResourceMetadata,
  resourceMetadataUrl,
} from '../auth/protected-resource.js';
import {
  MemoryEventStore,
  SessionTransport,
  type SessionEventStore,
  type WireMode,
} from '@mcp-agent/wire';
import { resolveServerLimits, type ServerLimits } from '../server-limits.js';
import { createGatewayServer } from './gateway-server.js';
import { syncHeldSessions, type HeldSession } from './held-session.js';
import { recordInitialize, replayInitialize } from './session-restore.js';
import type { TokenVerifier } from '../auth/token-verifier.js';

// Token digests remembered per session (a client refreshing its token uses several).
const MAX_TOKENS_PER_SESSION = 8;
// setTimeout's longest delay (about 24.8 days): a stream of a token valid for longer ends then.
const MAX_TIMER_MS = 2 ** 31 - 1;
// Priming events carry a retry interval, so a client that loses a stream resumes it.
const RETRY_INTERVAL_MS = 1_000;
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
  const track = (session: HeldSession, res: ServerResponse, caller: Caller) => {
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
  };
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
  const remember = (session: HeldSession, caller: Caller) => {
    session.tokens.delete(caller.tokenDigest);
    session.tokens.add(caller.tokenDigest);
    // A client that refreshes its token keeps its session; only the newest few are remembered.
    if (session.tokens.size > MAX_TOKENS_PER_SESSION)
      session.tokens.delete(session.tokens.values().next().value as string);
  };

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

  // The SDK transport, our transport over it and the session's server, for a new session
  // (`restored` undefined; its initialize's response `res` is tracked from the start) or one
  // another process opened; `onsessioninitialized` registers it.
  function build(
    caller: Caller,
    id: string,
    restored: GatewaySessionRecord | undefined,
    res?: ServerResponse,
  ) {
    const { userId } = caller;
    const ctx = contextOf(userId);
    const events: SessionEventStore = eventStore.forSession();
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
      maxRequestBodySize: limits.maxBodyBytes,
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
        if (res !== undefined) track(holder.session, res, caller);
      },
    });
    const transport =
      options.wire === 'sdk'
        ? sdkTransport
        : new SessionTransport(sdkTransport, events, {
            maxBodyBytes: limits.maxBodyBytes,
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
    const { sdkTransport, transport, server, holder } = build(caller, id, undefined, res);
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
    const { sdkTransport, transport, server, holder } = build(caller, id, record);
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
      remember(session, caller);
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

/**
 * Serves the gateway at `/mcp` on its own HTTP server (what `mcp-agent serve --http` runs), with
 * its protected-resource metadata at `/.well-known/oauth-protected-resource/mcp`.
 */
export async function serveHttpGateway(
  options: Omit<HttpGatewayOptions, 'allowedHosts'> & {
    readonly port: number;
    readonly host?: string;
  },
): Promise<{
  /** The Node HTTP server listening. */
  server: Server;
  /** The gateway's URL, `http://host:port/mcp`. */
  url: string;
  /** The gateway it serves. */
  gateway: HttpGateway;
  /** Closes the gateway's sessions, then the HTTP server. */
  close(): Promise<void>;
}> {
  const host = options.host ?? '127.0.0.1';
  // The handler exists before the gateway: the allowed hosts depend on the port listened on.
  const holder: { gateway?: HttpGateway } = {};
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method === 'GET' && path.startsWith(PROTECTED_RESOURCE_PATH)) {
      const resource = path.slice(PROTECTED_RESOURCE_PATH.length);
      if (resource === '' || resource === '/mcp') {
        const base = `http://${req.headers.host ?? `${host}`}`;
        res
          .writeHead(200, {
            'content-type': 'application/json',
            'access-control-allow-origin': '*',
          })
          .end(JSON.stringify(protectedResourceMetadata(base, resource, options.verifier)));
        return;
      }
    }
    if (!(req.url ?? '').startsWith('/mcp')) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'not found; the gateway is at /mcp' }));
      return;
    }
    holder.gateway?.handle(req, res).catch((error: unknown) => {
      options.logger?.error({ error: (error as Error).message }, 'gateway request failed');
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const hosts = [...new Set([`${host}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`])];
  const gateway = createHttpGateway({
    ...options,
    allowedHosts: hosts,
    // Pages served from the gateway's own loopback origin may call it; no other origin may.
    allowedOrigins: options.allowedOrigins ?? hosts.map((h) => `http://${h}`),
  });
  holder.gateway = gateway;
  return {
    server,
    url: `http://${host}:${port}/mcp`,
    gateway,
    async close() {
      await gateway.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
