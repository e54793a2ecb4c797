// The gateway on its own Node HTTP server (`mcp-agent serve --http`): routing by path, the
// protected-resource metadata, and the allowed hosts that depend on the port listened on. Apart
// from http-gateway.ts, which is the endpoint alone and is mounted by the HTTP API too.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PROTECTED_RESOURCE_PATH, protectedResourceMetadata } from '../auth/protected-resource.js';
import { createHttpGateway, type HttpGateway, type HttpGatewayOptions } from './http-gateway.js';

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
