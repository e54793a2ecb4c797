import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  parseUserId,
  silentLogger,
  systemClock,
  type Clock,
  type Logger,
  type UserId,
} from '@mcp-agent/core';
import type { AgentStack, DurableTasks } from '@mcp-agent/agent';
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
import type { TokenVerifier } from '../auth/token-verifier.js';

// Token digests remembered per session (a client refreshing its token uses several).
const MAX_TOKENS_PER_SESSION = 8;
// setTimeout's longest delay (about 24.8 days): a stream of a token valid for longer ends then.
const MAX_TIMER_MS = 2 ** 31 - 1;
// Priming events carry a retry interval, so a client that loses a stream resumes it.
const RETRY_INTERVAL_MS = 1_000;

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
}

interface Session {
  readonly userId: string;
  /** The digests of the tokens used on this session (the newest few): revoking one closes it. */
  readonly tokens: Set<string>;
  readonly transport: SessionTransport | StreamableHTTPServerTransport;
  readonly server: McpServer;
  /** When the last request arrived or the last response ended. */
  lastSeen: number;
  /** Responses still open (an SSE stream being read is not idle). */
  open: number;
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
  /** Closes every session and stops the idle timer. */
  close(): Promise<void>;
}

/**
 * The MCP gateway over streamable HTTP. Multi-tenant: every request is authenticated (bearer
 * token → user), every session is bound to the user who opened it, and another user's session
 * id gets the same 404 as an unknown one. Origin and Host are validated (DNS-rebinding
 * protection); streams are resumable through a bounded store of each session's own events.
 * Sessions per user are capped and idle ones expire.
 */
export function createHttpGateway(options: HttpGatewayOptions): HttpGateway {
  const limits = resolveServerLimits(options.limits);
  const clock = options.clock ?? systemClock;
  const sessions = new Map<string, Session>();
  // Sessions per user, counted from the initialize request on, so a burst cannot pass the cap.
  const perUser = new Map<string, number>();
  const eventStore = new MemoryEventStore(limits.eventStore, clock);
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
  const track = (session: Session, res: ServerResponse, caller: Caller) => {
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
      logger: options.logger ?? silentLogger,
    });
    if (isCaller(outcome)) return outcome;
    json(res, outcome.status, rpcError(-32001, outcome.message), { ...outcome.headers });
    return undefined;
  }

  // A revoked token's sessions close, and with them their open streams.
  const stopListening = verifier.onRevoke?.((digests) => {
    const closing = [...sessions.values()].filter((s) => [...s.tokens].some((t) => digests.has(t)));
    for (const session of closing) void session.server.close().catch(() => undefined);
    if (closing.length > 0)
      options.logger?.info({ sessions: closing.length }, 'sessions of revoked tokens closed');
  });
  const remember = (session: Session, caller: Caller) => {
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
    return idle.length;
  }

  async function openSession(req: IncomingMessage, res: ServerResponse, caller: Caller) {
    const { userId } = caller;
    const held = perUser.get(userId) ?? 0;
    if (held >= limits.maxSessionsPerUser) {
      json(
        res,
        429,
        rpcError(
          -32000,
          `Too many sessions: this user has ${held} open, the most allowed (maxSessionsPerUser). Close one (DELETE /mcp with its Mcp-Session-Id), or wait: a session idle for ${idleFor} expires.`,
        ),
        { 'retry-after': '60' },
      );
      return;
    }
    perUser.set(userId, held + 1);
    let released = false;
    const events: SessionEventStore = eventStore.forSession();
    let session: Session | undefined;
    const release = () => {
      if (released) return;
      released = true;
      const left = (perUser.get(userId) ?? 1) - 1;
      if (left > 0) perUser.set(userId, left);
      else perUser.delete(userId);
      events.dispose();
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    const sdkTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
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
      onsessioninitialized: (id) => {
        session = {
          userId,
          tokens: new Set([caller.tokenDigest]),
          transport,
          server,
          lastSeen: clock.now(),
          open: 0,
        };
        sessions.set(id, session);
        track(session, res, caller);
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
    });
    transport.onclose = () => {
      release();
      void server.close();
    };
    await server.connect(transport);
    try {
      await sdkTransport.handleRequest(req, res);
    } finally {
      // Not an initialize that succeeded (a bad or refused request): nothing is kept.
      if (session === undefined) await server.close().catch(() => undefined);
    }
  }

  return {
    get sessions() {
      return sessions.size;
    },
    stats() {
      const { events, bytes } = eventStore.stats();
      return { sessions: sessions.size, events, eventBytes: bytes };
    },
    expireIdleSessions,
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
      const session = sessions.get(sessionId);
      // Another user's session looks exactly like a missing one.
      if (session === undefined || session.userId !== caller.userId) {
        json(res, 404, rpcError(-32001, 'Session not found'));
        return;
      }
      remember(session, caller);
      track(session, res, caller);
      await session.transport.handleRequest(req, res);
    },
    async close() {
      clearInterval(sweep);
      stopListening?.();
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
