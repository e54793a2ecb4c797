import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Logger } from '@mcp-agent/core';
import type { AgentStack } from '@mcp-agent/agent';
import { MemoryEventStore } from './event-store.js';
import { createGatewayServer } from './gateway-server.js';
import type { TokenVerifier } from './token-verifier.js';

/** Options of {@link createHttpGateway}. */
export interface HttpGatewayOptions {
  readonly stack: AgentStack;
  /** Multi-tenant: maps each request's bearer token to its user. */
  readonly verifier?: TokenVerifier;
  /** Single-user mode (a loopback gateway for one person): no token, this user. */
  readonly singleUser?: string;
  /** Host headers accepted (DNS-rebinding protection), e.g. `127.0.0.1:8080`. */
  readonly allowedHosts?: readonly string[];
  /** Origins accepted from browsers; a request with any other Origin gets 403. */
  readonly allowedOrigins?: readonly string[];
  readonly logger?: Logger;
}

interface Session {
  readonly userId: string;
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpServer;
}

/** The gateway's streamable-HTTP endpoint, as a request handler for any Node HTTP server. */
export interface HttpGateway {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Open sessions, for status views and tests. */
  readonly sessions: number;
  close(): Promise<void>;
}

/**
 * The MCP gateway over streamable HTTP. Multi-tenant: every request is authenticated (bearer
 * token → user), every session is bound to the user who opened it, and another user's session
 * id gets the same 404 as an unknown one. Origin and Host are validated (DNS-rebinding
 * protection); streams are resumable through an event store.
 */
export function createHttpGateway(options: HttpGatewayOptions): HttpGateway {
  const sessions = new Map<string, Session>();
  const eventStore = new MemoryEventStore();
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

  async function authenticate(req: IncomingMessage): Promise<string | undefined> {
    if (options.singleUser !== undefined) return options.singleUser;
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    return match?.[1] === undefined ? undefined : options.verifier?.verify(match[1]);
  }

  return {
    get sessions() {
      return sessions.size;
    },
    async handle(req, res) {
      const origin = req.headers.origin;
      if (origin !== undefined && !(options.allowedOrigins ?? []).includes(origin)) {
        json(res, 403, rpcError(-32000, 'Forbidden: this Origin may not use the gateway.'));
        return;
      }
      const userId = await authenticate(req);
      if (userId === undefined) {
        json(res, 401, rpcError(-32001, 'Unauthorized: send "Authorization: Bearer <token>".'), {
          'www-authenticate': 'Bearer',
        });
        return;
      }
      const sessionId = req.headers['mcp-session-id'];
      if (typeof sessionId === 'string') {
        const session = sessions.get(sessionId);
        // Another user's session looks exactly like a missing one.
        if (session === undefined || session.userId !== userId) {
          json(res, 404, rpcError(-32001, 'Session not found'));
          return;
        }
        await session.transport.handleRequest(req, res);
        return;
      }
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore,
        // Priming events carry a retry interval, so a client that loses a stream resumes it.
        retryInterval: 1_000,
        ...(options.allowedHosts === undefined
          ? {}
          : {
              enableDnsRebindingProtection: true,
              allowedHosts: [...options.allowedHosts],
              allowedOrigins: [...(options.allowedOrigins ?? [])],
            }),
        onsessioninitialized: (id) => {
          sessions.set(id, { userId, transport, server });
        },
      });
      const server = createGatewayServer({
        stack: options.stack,
        userId,
        ...(options.logger === undefined ? {} : { logger: options.logger }),
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
        void server.close();
      };
      await server.connect(transport);
      await transport.handleRequest(req, res);
    },
    async close() {
      await Promise.all([...sessions.values()].map((s) => s.server.close().catch(() => undefined)));
      sessions.clear();
    },
  };
}

/** Serves the gateway at `/mcp` on its own HTTP server (what `mcp-agent serve --http` runs). */
export async function serveHttpGateway(
  options: Omit<HttpGatewayOptions, 'allowedHosts'> & {
    readonly port: number;
    readonly host?: string;
  },
): Promise<{ server: Server; url: string; gateway: HttpGateway; close(): Promise<void> }> {
  const host = options.host ?? '127.0.0.1';
  // The handler exists before the gateway: the allowed hosts depend on the port listened on.
  const holder: { gateway?: HttpGateway } = {};
  const server = createServer((req, res) => {
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
