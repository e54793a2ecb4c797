import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ServerConfig } from '@mcp-agent/core';
import { ProcessTransport } from './process-transport.js';

/** The transports to try for a server, in order: `auto` means streamable HTTP, then SSE. */
export function transportsFor(config: ServerConfig): (() => Transport)[] {
  if (config.transport === 'stdio') {
    return [
      () =>
        new ProcessTransport({
          command: config.command,
          args: config.args,
          env: config.env,
          ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
        }),
    ];
  }
  const url = new URL(config.url);
  const requestInit = { headers: { ...config.headers } };
  const streamable = () => new StreamableHTTPClientTransport(url, { requestInit });
  const sse = () =>
    new SSEClientTransport(url, {
      requestInit,
      eventSourceInit: { fetch: withHeaders(config.headers) },
    });
  if (config.transport === 'streamable-http') return [streamable];
  if (config.transport === 'sse') return [sse];
  return [streamable, sse];
}

// The SSE transport's GET needs the configured headers too (EventSource has no header option).
function withHeaders(headers: Readonly<Record<string, string>>): typeof fetch {
  return (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    return fetch(input, { ...init, headers: merged });
  };
}
