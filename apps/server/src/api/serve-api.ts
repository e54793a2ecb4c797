import { getRequestListener, type ServerType } from '@hono/node-server';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger, type Clock, type Logger } from '@mcp-agent/core';
import { DurableTasks, type AgentStack, type DurableTasksOptions } from '@mcp-agent/agent';
import type { WireMode } from '@mcp-agent/wire';
import { createHttpGateway, type HttpGateway } from '../gateway/http-gateway.js';
import type { TokenVerifier } from '../auth/token-verifier.js';
import { resolveServerLimits, type ServerLimits } from '../server-limits.js';
import { gatewayEndpoint, isGatewayRequest } from './gateway-endpoint.js';
import { createHttpApi } from './http-api.js';
import type { ObservabilityOptions } from '../ui/observability-routes.js';
import { resourceMetadataUrl } from '../auth/protected-resource.js';
import { checkPublicUrl, publicBaseUrl } from './public-url.js';

/** How durable tasks run in a served process (see `DurableTasksOptions`). */
export type TaskSettings = Omit<DurableTasksOptions, 'agent' | 'registry' | 'logger'>;

/** What a drain did: tasks finished or cancelled, requests finished or cut. */
export interface DrainOutcome {
  readonly tasks: { readonly finished: number; readonly cancelled: number };
  readonly requests: { readonly finished: number; readonly cut: number };
}

/** A served API: its URL and server, the gateway and tasks it serves, and how to stop it. */
export interface ServedApi {
  readonly url: string;
  readonly server: ServerType;
  readonly gateway: HttpGateway;
  readonly tasks: DurableTasks;
  /** Requests being answered now (streams of events and SSE gateway streams not counted). */
  readonly inFlight: number;
  /**
   * A graceful stop's first half: `/ready` answers 503, no new connection or task is taken,
   * in-flight requests and running tasks get up to `timeoutMs` to finish; then remaining tasks
   * are cancelled (saying the server shut down) and remaining requests cut. Call `close` after.
   */
  drain(timeoutMs: number): Promise<DrainOutcome>;
  close(): Promise<void>;
}

/** Serves the HTTP API and the gateway on one port (127.0.0.1 unless told otherwise). */
export async function serveHttpApi(options: {
  stack: AgentStack;
  verifier: TokenVerifier;
  port: number;
  host?: string;
  /** See `HttpApiOptions.trustTenantCommands`. */
  trustTenantCommands?: boolean;
  /** The URL users reach the server at behind a reverse proxy: OAuth redirects, allowed Host. */
  publicUrl?: string;
  /** Believe X-Forwarded-Proto and X-Forwarded-Host (only behind a proxy that sets them). */
  trustProxy?: boolean;
  /** See `HttpGatewayOptions.jsonAnswers`. */
  gatewayJsonAnswers?: boolean;
  /** See `HttpGatewayOptions.wire`: `sdk` runs the gateway on the MCP SDK alone. */
  wire?: WireMode;
  /** Body size, sessions per user, idle expiry, the resume store, keep-alive. */
  limits?: ServerLimits;
  /** The clock of session expiry; a manual one in tests. */
  clock?: Clock;
  logger?: Logger;
  /** The MCP Registry behind `GET /v1/registry/servers`; default the official one. */
  mcpRegistryUrl?: string | undefined;
  /** `/metrics` and the web UI (see `HttpApiOptions.observability`). */
  observability?: ObservabilityOptions;
  /** Leases, retention and bounds of durable tasks. */
  tasks?: TaskSettings;
}): Promise<ServedApi> {
  const host = options.host ?? '127.0.0.1';
  const tasks = new DurableTasks({
    ...options.tasks,
    agent: options.stack.agent,
    registry: options.stack.registry,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  let draining = false;
  const publicUrl =
    options.publicUrl === undefined ? undefined : new URL(checkPublicUrl(options.publicUrl));
  // The gateway's allowed hosts depend on the port listened on: it is made once that is known.
  const holder: { gateway?: HttpGateway } = {};
  const gateway = (): HttpGateway => holder.gateway as HttpGateway;
  const lazyGateway: HttpGateway = {
    get sessions() {
      return holder.gateway?.sessions ?? 0;
    },
    stats: () => gateway().stats(),
    expireIdleSessions: () => gateway().expireIdleSessions(),
    syncSessions: () => gateway().syncSessions(),
    handle: (req, res) => gateway().handle(req, res),
    close: async () => holder.gateway?.close(),
  };
  const app = createHttpApi({
    stack: options.stack,
    verifier: options.verifier,
    gateway: lazyGateway,
    tasks,
    draining: () => draining,
    ...(options.trustTenantCommands === undefined
      ? {}
      : { trustTenantCommands: options.trustTenantCommands }),
    ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
    ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
    ...(options.limits?.maxBodyBytes === undefined
      ? {}
      : { maxBodyBytes: options.limits.maxBodyBytes }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.mcpRegistryUrl === undefined ? {} : { mcpRegistryUrl: options.mcpRegistryUrl }),
    ...(options.observability === undefined ? {} : { observability: options.observability }),
  });
  // Hono's node server, except that /mcp goes to the gateway as Node's request and response.
  const api = getRequestListener(app.fetch, { hostname: host });
  const mcp = gatewayEndpoint(lazyGateway, options.logger ?? silentLogger);
  const http: Server = createServer((req, res) => {
    if (isGatewayRequest(req)) mcp(req, res);
    else void api(req, res);
  });
  // Longer than a balancer's idle timeout, so the server never closes a kept-alive connection
  // while the balancer reuses it (a race the balancer answers with 502: docs/closing-figures.md,
  // load-03). Idle connections still go at a drain (closeIdleConnections).
  http.keepAliveTimeout = resolveServerLimits(options.limits).keepAliveTimeoutMs;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const server: ServerType = http;
  // Requests being answered; the long streams (a task's events, the gateway's GET stream) are
  // not work a drain waits for.
  const inFlight = new Set<ServerResponse>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET' && /^\/(mcp|v1\/tasks\/[^/]+\/events)(\?|$)/.test(req.url ?? ''))
      return;
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });
  const { port } = server.address() as AddressInfo;
  const hosts = [`${host}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`];
  holder.gateway = createHttpGateway({
    stack: options.stack,
    verifier: options.verifier,
    // Behind a proxy, clients send the public host and origin.
    allowedHosts: publicUrl === undefined ? hosts : [...hosts, publicUrl.host],
    allowedOrigins: [
      ...hosts.map((h) => `http://${h}`),
      ...(publicUrl === undefined ? [] : [publicUrl.origin]),
    ],
    // The gateway's 401s name its metadata at the URL its clients reach it at.
    resourceMetadataUrl: (req) =>
      resourceMetadataUrl(
        publicBaseUrl(
          `http://${req.headers.host ?? `${host}:${port}`}${req.url ?? '/'}`,
          (name) => [req.headers[name]].flat()[0],
          {
            ...(options.publicUrl === undefined
              ? {}
              : { publicUrl: checkPublicUrl(options.publicUrl) }),
            ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
          },
        ),
        '/mcp',
      ),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.gatewayJsonAnswers === undefined
      ? {}
      : { jsonAnswers: options.gatewayJsonAnswers }),
    ...(options.wire === undefined ? {} : { wire: options.wire }),
    tasks,
  });
  const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
  return {
    url: `http://${host}:${port}`,
    server,
    gateway: lazyGateway,
    tasks,
    get inFlight() {
      return inFlight.size;
    },
    async drain(timeoutMs) {
      draining = true;
      // No new connections; idle keep-alive ones close, busy ones close after their response.
      server.close();
      http.closeIdleConnections();
      const busy = inFlight.size;
      const requests = waitUntil(() => inFlight.size === 0, timeoutMs);
      const [taskOutcome] = await Promise.all([tasks.drain(timeoutMs), requests]);
      const cut = inFlight.size;
      for (const res of inFlight) res.destroy();
      return { tasks: taskOutcome, requests: { finished: Math.max(0, busy - cut), cut } };
    },
    async close() {
      draining = true;
      await tasks.close();
      await holder.gateway?.close();
      server.close();
      http.closeAllConnections();
      await closed;
    },
  };
}

// Resolves once `done()` is true (checked every 50 ms) or after `timeoutMs`.
async function waitUntil(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!done() && performance.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, Math.min(50, timeoutMs)));
}
