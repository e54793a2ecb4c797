// What the multi-process tests (scale-out.test.ts) do to a cluster: start tasks, open gateway
// sessions, call meta-tools, wait for another process to catch up, and move a client between
// processes as a load balancer would.
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ScriptedMessage, ScriptStep } from '@mcp-agent/agent/testing';
import { alive, descendants } from '@mcp-agent/test-support';
import { apiCall } from './api/api-test-helpers.js';
import type { ServerProcess } from './testing/server-cluster.js';

export const say = (text: string, delayMs?: number): ScriptedMessage => ({
  content: [{ type: 'text', text }],
  ...(delayMs === undefined ? {} : { delayMs }),
});
export const search: ScriptStep = {
  content: [{ type: 'tool_use', name: 'search_tools', input: { query: 'list issues' } }],
  delayMs: 300,
};

export async function waitFor<T>(
  read: () => Promise<T | undefined>,
  timeoutMs: number,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function startTask(
  server: ServerProcess,
  token: string,
  task: string,
): Promise<string> {
  const started = await apiCall(server.url, token, 'POST', '/v1/tasks', { task });
  expect(started.status).toBe(202);
  return ((await started.json()) as { id: string }).id;
}

export async function gateway(server: ServerProcess | string, token: string): Promise<Client> {
  const client = new Client({ name: 'scale-test', version: '1' });
  const base = typeof server === 'string' ? server : server.url;
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

export async function metaCall(client: Client, name: string, args: object) {
  const result = await client.callTool({ name, arguments: args as Record<string, unknown> });
  const text = (result.content as { text: string }[])[0]?.text ?? 'null';
  return { ok: result.isError !== true, value: JSON.parse(text) as Record<string, unknown> };
}

// The scripted MCP servers a server process runs (not its sandbox workers).
export const scriptedChildren = (server: ServerProcess) =>
  descendants(server.pid).filter((pid) => {
    try {
      return alive(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('scripted-server');
    } catch {
      return false;
    }
  });

/** A one-target HTTP proxy whose target can be changed: a load balancer that moved a client. */
export async function switchableProxy(
  target: string,
): Promise<{ url: string; target: string; close(): Promise<void> }> {
  const state = { target };
  const server: Server = createServer((req, res) => {
    const to = new URL(req.url ?? '/', state.target);
    const upstream = httpRequest(
      to,
      { method: req.method, headers: { ...req.headers, host: to.host } },
      (response) => {
        res.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get target() {
      return state.target;
    },
    set target(value: string) {
      state.target = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
