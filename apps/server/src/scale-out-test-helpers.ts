// What the multi-process tests (scale-out.test.ts) do to a cluster: start tasks, open gateway
// sessions, call meta-tools, and wait for another process to catch up.
import { readFileSync } from 'node:fs';
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
