// Serves stdio MCP sessions on loopback streamable HTTP, for clients that speak HTTP only (the
// official conformance suite's server runner).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';

/** A running bridge. */
export interface StdioHttpBridge {
  /** Its endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** Sessions open now (each is one stdio peer). */
  readonly sessions: number;
  /** Closes every session (and so its peer), then the HTTP server. */
  close(): Promise<void>;
}

/**
 * Serves one stdio peer per HTTP session on loopback: `openPeer` gives a transport to a new
 * peer (a child's stdio, or a stdio server's streams in this process, see {@link lineTransport})
 * when a session initialises, and every message is passed on as it is — the SDK's
 * `StreamableHTTPServerTransport` on the HTTP side. A progress notification goes on the stream of
 * the request that gave its token; any other message of the peer that answers no request (a log
 * message, a request to the client) goes on the session's GET stream, where an HTTP server sends
 * what belongs to no request. Either side's end closes the other.
 */
export async function serveStdioOverHttp(openPeer: () => Transport): Promise<StdioHttpBridge> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  const openSession = () => {
    const http: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, http),
    });
    let peer: Transport | undefined;
    let started: Promise<void> | undefined;
    // The request each progress token came with, until that request is answered.
    const progressOf = new Map<unknown, RequestId>();
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      if (http.sessionId !== undefined) sessions.delete(http.sessionId);
      void peer?.close();
      void http.close();
    };
    http.onmessage = (message) => {
      const request = message as { id?: RequestId; method?: string; params?: { _meta?: object } };
      const token = (request.params?._meta as { progressToken?: unknown } | undefined)
        ?.progressToken;
      if (request.method !== undefined && request.id !== undefined && token !== undefined)
        progressOf.set(token, request.id);
      if (peer === undefined) {
        peer = openPeer();
        peer.onmessage = (answer) => fromPeer(answer);
        peer.onclose = close;
        peer.onerror = () => undefined;
        started = peer.start();
      }
      const to = peer;
      void (started as Promise<void>).then(() => to.send(message)).catch(() => close());
    };
    const fromPeer = (message: JSONRPCMessage) => {
      const sent = message as { id?: RequestId; method?: string; params?: object };
      if (sent.method === 'notifications/progress') {
        const token = (sent.params as { progressToken?: unknown } | undefined)?.progressToken;
        const relatedRequestId = progressOf.get(token);
        void http.send(message, relatedRequestId === undefined ? {} : { relatedRequestId });
        return;
      }
      if (sent.method === undefined)
        for (const [token, id] of progressOf) if (id === sent.id) progressOf.delete(token);
      void http.send(message);
    };
    http.onclose = close;
    http.onerror = () => undefined;
    return http;
  };

  const server = createServer((req, res) => {
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (typeof id === 'string' && known === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32001, message: 'Session not found' },
          id: null,
        }),
      );
      return;
    }
    const http = known ?? openSession();
    void http.handleRequest(req, res).then(async () => {
      // A request without a session that opened none (not an initialize) leaves nothing behind.
      if (known === undefined && http.sessionId === undefined) await http.close();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    get sessions() {
      return sessions.size;
    },
    async close() {
      await Promise.all([...sessions.values()].map((http) => http.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The client end of a stdio session held in this process: each message written to `input` as
 * one line of JSON, each line of `output` read as one message. Ending `input` is the client's
 * close, as a child's stdin ending is.
 */
export function lineTransport(
  input: NodeJS.WritableStream,
  output: NodeJS.ReadableStream,
): Transport {
  const transport: Transport = {
    async start() {
      const lines = createInterface({ input: output, crlfDelay: Infinity });
      lines.on('line', (line) => {
        if (line.trim() === '') return;
        try {
          transport.onmessage?.(JSON.parse(line) as JSONRPCMessage);
        } catch (error) {
          transport.onerror?.(error as Error);
        }
      });
      lines.once('close', () => transport.onclose?.());
    },
    async send(message) {
      input.write(`${JSON.stringify(message)}\n`);
    },
    async close() {
      input.end();
    },
  };
  return transport;
}
