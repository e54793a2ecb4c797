// The scale variant's distractors as real MCP servers: each recorded catalog served by the MCP
// SDK's own Server over its streamable-HTTP transport on loopback, one URL per server, so the
// registry and pool connect, list and call them exactly as they do any remote server. A call
// is answered with an error result that says the server is a recording.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordedServer } from './distractor-catalogs.js';

/** One served recording as `registry.addServer` takes it. */
export interface DistractorServerConfig {
  readonly id: string;
  readonly transport: 'streamable-http';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** The running host: the servers' configs, and how many requests reached it. */
export interface DistractorHost {
  readonly servers: readonly DistractorServerConfig[];
  /** tools/call requests answered (each with the recording's error). */
  readonly calls: number;
  close(): Promise<void>;
}

/**
 * Serves each recorded server at `http://127.0.0.1:<port>/<id>` (ids from `ids`, same order).
 * Stateless (a fresh SDK server per request, as the SDK's stateless example does), so nothing
 * is held between requests; GET and DELETE are refused with 405, which the spec allows for a
 * server without a stream of its own.
 */
export async function startDistractorHost(
  recorded: readonly RecordedServer[],
  ids: readonly string[],
): Promise<DistractorHost> {
  const [
    { Server },
    { StreamableHTTPServerTransport },
    { CallToolRequestSchema, ListToolsRequestSchema },
  ] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const byId = new Map(ids.map((id, i) => [id, recorded[i] as RecordedServer]));
  let calls = 0;

  const serve = async (recording: RecordedServer, req: IncomingMessage, res: ServerResponse) => {
    const server = new Server(
      { name: recording.name, version: 'recorded' },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: recording.tools.map((tool) => ({ ...tool })) as never,
    }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      calls += 1;
      return {
        isError: true,
        content: [
          {
            type: 'text' as const,
            text: `${recording.name} is a recorded catalog (${recording.catalog}) connected as a distractor: its tool "${request.params.name}" cannot run here. Use a tool of another server.`,
          },
        ],
      };
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };

  const http = createServer((req, res) => {
    const id = decodeURIComponent(new URL(req.url ?? '/', 'http://host').pathname.slice(1));
    const recording = byId.get(id);
    if (recording === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`no recorded server "${id}"`);
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    serve(recording, req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  const { port } = http.address() as AddressInfo;
  return {
    servers: ids.map((id) => ({
      id,
      transport: 'streamable-http',
      url: `http://127.0.0.1:${port}/${encodeURIComponent(id)}`,
      headers: {},
    })),
    get calls() {
      return calls;
    },
    close: () =>
      new Promise<void>((done) => {
        http.closeAllConnections();
        http.close(() => done());
      }),
  };
}
