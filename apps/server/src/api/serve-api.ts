import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Clock, Logger } from '@mcp-agent/core';
import type { AgentStack } from '@mcp-agent/agent';
import { createHttpGateway, type HttpGateway } from '../gateway/http-gateway.js';
import type { TokenVerifier } from '../gateway/token-verifier.js';
import type { ServerLimits } from '../server-limits.js';
import { createHttpApi } from './http-api.js';
import type { ObservabilityOptions } from '../ui/observability-routes.js';
import { resourceMetadataUrl } from '../auth/protected-resource.js';
import { checkPublicUrl, publicBaseUrl } from './public-url.js';

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
  /** Body size, sessions per user, idle expiry, the resume store. */
  limits?: ServerLimits;
  /** The clock of session expiry; a manual one in tests. */
  clock?: Clock;
  logger?: Logger;
  /** The MCP Registry behind `GET /v1/registry/servers`; default the official one. */
  mcpRegistryUrl?: string | undefined;
  /** `/metrics` and the web UI (see `HttpApiOptions.observability`). */
  observability?: ObservabilityOptions;
}): Promise<{ url: string; server: ServerType; gateway: HttpGateway; close(): Promise<void> }> {
  const host = options.host ?? '127.0.0.1';
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
    handle: (req, res) => gateway().handle(req, res),
    close: async () => holder.gateway?.close(),
  };
  const app = createHttpApi({
    stack: options.stack,
    verifier: options.verifier,
    gateway: lazyGateway,
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
  const server = await new Promise<ServerType>((resolve) => {
    const started: ServerType = serve(
      { fetch: app.fetch, port: options.port, hostname: host },
      () => resolve(started),
    );
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
  });
  return {
    url: `http://${host}:${port}`,
    server,
    gateway: lazyGateway,
    async close() {
      await holder.gateway?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
