import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createContext } from '@mcp-agent/core';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { MockModelClient, mockText, mockToolUse } from '@mcp-agent/agent/testing';
import { StaticTokenVerifier } from '../auth/token-verifier.js';
import { serveHttpApi } from './serve-api.js';

// RES-01 on the real server over loopback: a server's resources, listed and read in a tight
// loop, pass the same rate limit and are counted in the same usage as tool calls, on the HTTP
// API, the gateway and the agent (the CLI's case is in apps/cli's cli-media.test.ts). Each
// surface is one user here, so each starts from a full allowance.

const home = mkdtempSync(join(tmpdir(), 'mcp-resource-gate-'));
const everything = fileURLToPath(
  new URL(
    '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
    import.meta.url,
  ),
);
const DOC = 'demo://resource/static/document/architecture.md';
const TOKENS = { alice: 'a'.repeat(32), bob: 'b'.repeat(32) };
const readDoc = ['read_resource', { server: 'everything', uri: DOC }] as const;
const model = new MockModelClient([
  mockToolUse([readDoc]),
  mockToolUse([readDoc]),
  mockToolUse([readDoc]),
  mockText('Read.'),
]);
let stack: AgentStack;
let api: Awaited<ReturnType<typeof serveHttpApi>>;

const get = (path: string, token: string) =>
  fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
const calls = async (userId: string) =>
  (await stack.registry.usageSummary(createContext({ userId }), { days: 1 })).totals.toolCalls;

beforeAll(async () => {
  stack = await openAgentStack({
    home,
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
    userServers: { stdio: [{ command: process.execPath, args: [everything] }], remote: 'public' },
    sandbox: false,
    model,
    // Two operations at once per user and server, then one per 100 s: a tight loop is refused.
    rateLimits: { default: { ratePerSecond: 0.01, burst: 2 } },
  });
  for (const userId of ['alice', 'bob', 'carol'])
    await stack.registry.addServer(createContext({ userId }), {
      id: 'everything',
      transport: 'stdio',
      command: process.execPath,
      args: [everything],
    });
  api = await serveHttpApi({
    stack,
    port: 0,
    verifier: new StaticTokenVerifier({ [TOKENS.alice]: 'alice', [TOKENS.bob]: 'bob' }),
  });
});
afterAll(async () => {
  await api?.close();
  await stack?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('RES-01 resources pass the tool-call middleware on every surface', () => {
  it('RES-01 the HTTP API: a list and a read pass, the next read is 429 with Retry-After, and both are counted', async () => {
    const listed = await get('/v1/servers/everything/resources', TOKENS.alice);
    expect(listed.status).toBe(200);
    expect(JSON.stringify(await listed.json())).toContain(DOC);
    const path = `/v1/servers/everything/resources/read?uri=${encodeURIComponent(DOC)}`;
    const read = await get(path, TOKENS.alice);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { contents: unknown[] }).contents).toHaveLength(1);
    const limited = await get(path, TOKENS.alice);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    expect(await calls('alice')).toBe(2);
    // Another user's server of the same name is not reached through this one.
    expect((await get('/v1/servers/nope/resources', TOKENS.alice)).status).toBe(404);
  });

  it('RES-01 the gateway: read_resource in a tight loop is refused past the limit, and counted', async () => {
    const client = new Client({ name: 'probe', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${TOKENS.bob}` } },
      }),
    );
    try {
      const results = [];
      for (let i = 0; i < 4; i++)
        results.push(
          await client.callTool({
            name: 'read_resource',
            arguments: { server: 'everything', uri: DOC },
          }),
        );
      expect(results.map((r) => r.isError === true)).toEqual([false, false, true, true]);
      expect(JSON.stringify(results[2])).toMatch(/RATE_LIMITED/);
      expect(await calls('bob')).toBe(2);
    } finally {
      await client.close();
    }
  });

  it('RES-01 the agent: a task reading a resource in a loop meets the same limit, and its usage counts the reads', async () => {
    const result = await stack.agent.executeTask('Read the architecture doc three times.', 'carol');
    expect(result.status).toBe('completed');
    const reads = result.steps.filter((step) => step.command === 'read_resource');
    expect(reads.map((step) => step.ok)).toEqual([true, true, false]);
    expect(JSON.stringify(reads[2]?.observation)).toMatch(/RATE_LIMITED/);
    expect(result.usage.servers).toEqual([
      { server: 'everything', calls: 2, errors: 0, durationMs: expect.any(Number) },
    ]);
    expect(await calls('carol')).toBe(2);
  });
});
