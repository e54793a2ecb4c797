import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ServerConfig } from '@mcp-agent/core';
import { ProcessTransport, type WireMode } from '@mcp-agent/wire';
import { childEnvironment } from './passed-env.js';

/**
 * The transports to try for a server, in order: `auto` means streamable HTTP, then SSE. A stdio
 * server runs under `ProcessTransport`, or the SDK's `StdioClientTransport` on `wire: 'sdk'`.
 */
export function transportsFor(
  config: ServerConfig,
  options: { fetch?: typeof fetch; passEnv?: readonly string[]; wire?: WireMode } = {},
): (() => Transport)[] {
  if (config.transport === 'stdio') {
    const env = childEnvironment(config.env, options.passEnv ?? []);
    const cwd = config.cwd === undefined ? {} : { cwd: config.cwd };
    if (options.wire === 'sdk')
      return [() => sdkStdioTransport(config.command, config.args, env, cwd)];
    return [
      () => new ProcessTransport({ command: config.command, args: config.args, env, ...cwd }),
    ];
  }
  const url = new URL(config.url);
  const requestInit = { headers: { ...config.headers } };
  const custom = options.fetch === undefined ? {} : { fetch: options.fetch };
  const streamable = () => new StreamableHTTPClientTransport(url, { requestInit, ...custom });
  const sse = () =>
    new SSEClientTransport(url, {
      requestInit,
      ...custom,
      eventSourceInit: { fetch: withHeaders(config.headers, options.fetch ?? fetch) },
    });
  if (config.transport === 'streamable-http') return [streamable];
  if (config.transport === 'sse') return [sse];
  return [streamable, sse];
}

// The SSE transport's GET needs the configured headers too (EventSource has no header option).
function withHeaders(headers: Readonly<Record<string, string>>, base: typeof fetch): typeof fetch {
  return (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    return base(input, { ...init, headers: merged });
  };
}

// The SDK's stdio client transport, as `wire: 'sdk'` runs it: the same environment; stderr piped
// and drained (unread, a full pipe would stall the server) rather than mixed into the host's.
function sdkStdioTransport(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  cwd: { cwd?: string },
): Transport {
  const transport = new StdioClientTransport({
    command,
    args: [...args],
    env,
    stderr: 'pipe',
    ...cwd,
  });
  transport.stderr?.on('data', () => undefined);
  return transport;
}
