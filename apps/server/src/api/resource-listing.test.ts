import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createContext } from '@mcp-agent/core';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { serverFixtures } from '@mcp-agent/test-support';
import { StaticTokenVerifier } from '../auth/token-verifier.js';
import { serveHttpApi } from './serve-api.js';

// RES-04 and RES-05 on the real server over loopback, with a real SDK server that declares
// resources but answers -32601 to resources/templates/list: the API lists its resources (200,
// templates none), and through the gateway a rate-limit refusal is an error, not an empty page.

const home = mkdtempSync(join(tmpdir(), 'mcp-resource-listing-'));
const TOKENS = { alice: 'a'.repeat(32), bob: 'b'.repeat(32) };
const notes = [serverFixtures.resourcesWithoutTemplates, '3'];
let stack: AgentStack;
let api: Awaited<ReturnType<typeof serveHttpApi>>;

beforeAll(async () => {
  stack = await openAgentStack({
    home,
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
    userServers: { stdio: [{ command: process.execPath, args: notes }], remote: 'public' },
    sandbox: false,
    // Two operations at once per user and server, then one per 100 s.
    rateLimits: { default: { ratePerSecond: 0.01, burst: 2 } },
  });
  for (const userId of ['alice', 'bob'])
    await stack.registry.addServer(createContext({ userId }), {
      id: 'notes',
      transport: 'stdio',
      command: process.execPath,
      args: notes,
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

describe('resources of a server without templates', () => {
  it('RES-04 the HTTP API lists its resources (200), templates none', async () => {
    const listed = await fetch(`${api.url}/v1/servers/notes/resources`, {
      headers: { authorization: `Bearer ${TOKENS.alice}` },
    });
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { resources: { uri: string }[]; templates: unknown[] };
    expect(body.resources.map((r) => r.uri)).toEqual([
      'note://resources-server/1',
      'note://resources-server/2',
      'note://resources-server/3',
    ]);
    expect(body.templates).toEqual([]);
  });

  it('RES-05 through the gateway, a rate-limit refusal is a JSON-RPC error with its reason, never an empty page', async () => {
    const client = new Client({ name: 'probe', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${TOKENS.bob}` } },
      }),
    );
    try {
      for (let i = 0; i < 2; i++) expect((await client.listResources()).resources).toHaveLength(3);
      await expect(client.listResources()).rejects.toThrow(/RATE_LIMITED: /);
    } finally {
      await client.close();
    }
  });
});
