import type { Readable, Writable } from 'node:stream';
import type { Logger } from '@mcp-agent/core';
import type { AgentStack } from '@mcp-agent/agent';
import { createGatewayServer } from './gateway-server.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { answerUnreadableLine, StdioLineTransport, type WireMode } from '@mcp-agent/wire';

/** Options of {@link serveStdioGateway}. */
export interface StdioGatewayOptions {
  /** The stack the meta-tools and tasks run on. */
  readonly stack: AgentStack;
  /** The one user this gateway serves (the process's, as its operator chose). */
  readonly userId: string;
  /** Where failures go; never standard output, which carries the protocol. Default none. */
  readonly logger?: Logger;
  /** A message (one line) past this is answered with an error and dropped; default 4 MiB. */
  readonly maxMessageBytes?: number;
  /** Where requests come from; default `process.stdin`. */
  readonly stdin?: NodeJS.ReadableStream;
  /** Where answers go; default `process.stdout`. */
  readonly stdout?: NodeJS.WritableStream;
  /**
   * `lanes` (default): stdin read by `StdioLineTransport`, tool calls on the call lane. `sdk`
   * (`MCP_AGENT_WIRE=sdk`): the SDK's `StdioServerTransport` and `Server` alone; a line then has
   * no length bound of the gateway's (`maxMessageBytes` is not applied).
   */
  readonly wire?: WireMode;
}

/** A running stdio gateway. */
export interface StdioGateway {
  /** Settles when the client is gone (stdin ended, stdout broken) or `close()` was called. */
  readonly closed: Promise<void>;
  /** Closes the MCP server and its transport; `closed` settles. */
  close(): Promise<void>;
}

/**
 * Serves the gateway over stdin/stdout for one user (what `mcp-agent serve --stdio` runs). It
 * ends when the client closes stdin, so the caller can release everything and exit; a line
 * past `maxMessageBytes` gets a JSON-RPC error (with the request's id when it can be read), a
 * line that is not JSON, a batch or not JSON-RPC 2.0 gets one (id null; on both wires), and the
 * session goes on.
 */
export async function serveStdioGateway(options: StdioGatewayOptions): Promise<StdioGateway> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const maxBytes = options.maxMessageBytes ?? 4 * 1024 * 1024;
  const transport =
    options.wire === 'sdk'
      ? new StdioServerTransport(stdin as Readable, stdout as Writable)
      : new StdioLineTransport({
          stdin,
          stdout,
          maxMessageBytes: maxBytes,
          onOversized: ({ bytes, id }) => {
            options.logger?.warn({ bytes, maxBytes }, 'stdio message too large; dropped');
            const message = `The message is ${bytes} bytes, more than the ${maxBytes} this gateway reads; it was dropped. Send smaller requests.`;
            stdout.write(
              `${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32600, message } })}\n`,
            );
          },
        });
  const server = createGatewayServer(options);
  let closing: Promise<void> | undefined;
  let settle = () => {};
  const closed = new Promise<void>((resolve) => {
    settle = resolve;
  });
  // Deferred a tick: closing the server closes the transport, which calls back here.
  const close = () =>
    (closing ??= Promise.resolve()
      .then(() => server.close())
      .catch(() => undefined)
      .finally(settle));
  // The transport closes when stdin ends; a stdin closed without its end closes it here.
  stdin.once('close', () => void close());
  stdout.once('error', () => void close());
  transport.onclose = () => void close();
  // A line that is not one JSON-RPC message is reported by either transport (an object the
  // lanes pass on and the SDK's Protocol cannot route, by the Protocol) and answered by none:
  // JSON-RPC 2.0 answers it (-32700 or -32600, id null), and the session goes on. The server's
  // onerror hears both: the Protocol passes its transport's errors on to it.
  server.onerror = (error) => {
    const answer = answerUnreadableLine(error);
    if (answer !== undefined) void transport.send(answer).catch(() => undefined);
  };
  await server.connect(transport);
  return { closed, close };
}
