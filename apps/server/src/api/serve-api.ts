import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { AgentStack } from '@mcp-agent/agent';
import { createHttpGateway } from '../gateway/http-gateway.js';
import type { TokenVerifier } from '../gateway/token-verifier.js';
import { createHttpApi } from './http-api.js';

/** Serves the HTTP API and the gateway on one port (127.0.0.1 unless told otherwise). */
export async function serveHttpApi(options: {
  stack: AgentStack;
  verifier: TokenVerifier;
  port: number;
  host?: string;
  /** See `HttpApiOptions.trustTenantCommands`. */
  trustTenantCommands?: boolean;
}): Promise<{ url: string; server: ServerType; close(): Promise<void> }> {
  const host = options.host ?? '127.0.0.1';
  const holder: { gateway?: ReturnType<typeof createHttpGateway> } = {};
  const lazyGateway = {
    get sessions() {
      return holder.gateway?.sessions ?? 0;
    },
    handle: (
      req: Parameters<ReturnType<typeof createHttpGateway>['handle']>[0],
      res: Parameters<ReturnType<typeof createHttpGateway>['handle']>[1],
    ) => (holder.gateway as ReturnType<typeof createHttpGateway>).handle(req, res),
    close: async () => holder.gateway?.close(),
  };
  const app = createHttpApi({
    stack: options.stack,
    verifier: options.verifier,
    gateway: lazyGateway,
    ...(options.trustTenantCommands === undefined
      ? {}
      : { trustTenantCommands: options.trustTenantCommands }),
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
    allowedHosts: hosts,
    allowedOrigins: hosts.map((h) => `http://${h}`),
  });
  return {
    url: `http://${host}:${port}`,
    server,
    async close() {
      await holder.gateway?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
