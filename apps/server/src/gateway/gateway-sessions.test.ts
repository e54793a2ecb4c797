import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createContext } from '@mcp-agent/core';
import { createManualClock, createMemoryLogger } from '@mcp-agent/core/testing';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import type { GatewaySessionStore } from '@mcp-agent/registry';
import { MemoryGatewaySessionStore } from '@mcp-agent/registry/testing';
import { serverFixtures } from '@mcp-agent/test-support';
import { StaticTokenVerifier } from '../auth/token-verifier.js';
import { startBalancer, type Balancer } from '../testing/balancer.js';
import { serveHttpGateway } from './serve-http-gateway.js';
import { postToSession, text } from './gateway-test-helpers.js';

// Two gateways on one database, as two processes are, behind a balancer that is not sticky: a
// session opened on one is served by either, and what one process holds costs the other nothing.
const ALICE = `alice-${randomBytes(12).toString('hex')}`;
const BOB = `bob-${randomBytes(12).toString('hex')}`;
const home = mkdtempSync(join(tmpdir(), 'mcp-gateway-sessions-'));
let stack: AgentStack;
type Served = Awaited<ReturnType<typeof serveHttpGateway>>;
const served: Served[] = [];
let balancer: Balancer;
const log = createMemoryLogger('warn');
// Every store call of both gateways, by method.
const storeCalls: string[] = [];

function counted(store: GatewaySessionStore): GatewaySessionStore {
  return new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        storeCalls.push(String(name));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

async function serve(wire?: 'sdk'): Promise<Served> {
  const gateway = await serveHttpGateway({
    ...(wire === undefined ? {} : { wire }),
    stack,
    port: 0,
    verifier: new StaticTokenVerifier({ [ALICE]: 'alice', [BOB]: 'bob' }),
    logger: log.logger,
    sessionStore: counted(stack.registry.gatewaySessions),
    limits: { maxSessionsPerUser: 3 },
  });
  served.push(gateway);
  return gateway;
}

async function connect(url: string, token = ALICE) {
  const client = new Client({ name: 'sessions-test', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return { client, transport };
}

// A raw initialize of Alice's (no SDK client: no GET stream that would keep the session busy).
const initializeAt = (gateway: Served) =>
  fetch(gateway.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${ALICE}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'sessions-test', version: '1' },
      },
    }),
  });

beforeAll(async () => {
  stack = await openAgentStack({
    home,
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
  });
  const file = join(home, 'notes.json');
  writeFileSync(
    file,
    JSON.stringify({
      tools: [
        {
          name: 'list_notes',
          description: 'List the notes of a notebook',
          inputSchema: { type: 'object', properties: { notebook: { type: 'string' } } },
        },
      ],
    }),
  );
  await stack.registry.addServer(createContext({ userId: 'alice' }), {
    id: 'notes',
    transport: 'stdio',
    command: process.execPath,
    args: [serverFixtures.scripted, file],
  });
  const [a, b] = [await serve(), await serve()];
  balancer = await startBalancer(
    [a, b].map((g) => g.url.replace(/\/mcp$/, '')),
    { sticky: false },
  );
}, 60_000);
afterAll(async () => {
  await balancer?.close();
  for (const gateway of served) await gateway.close();
  await stack?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('a gateway session any process serves', () => {
  it('initialize on one, then list, search, describe and call alternate between two gateways, and all succeed', async () => {
    const [a, b] = served as [Served, Served];
    const { client, transport } = await connect(balancer.url);
    const sessionId = transport.sessionId as string;
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('call_tool');
    const found = text(
      await client.callTool({ name: 'search_tools', arguments: { query: 'list my notes' } }),
    );
    expect(JSON.stringify(found)).toContain('notes.list_notes');
    const described = await client.callTool({
      name: 'describe_tools',
      arguments: { tool_ids: ['notes.list_notes'] },
    });
    expect(described.isError).not.toBe(true);
    for (let i = 0; i < 4; i += 1) {
      const called = await client.callTool({
        name: 'call_tool',
        arguments: { tool_id: 'notes.list_notes', arguments: { notebook: 'work' } },
      });
      expect(called.isError, JSON.stringify(called)).not.toBe(true);
    }
    // Round-robin: both gateways served the session, each holding its own copy.
    const forwarded = balancer.stats().forwarded;
    expect(Object.values(forwarded).every((n) => n >= 3)).toBe(true);
    expect(a.gateway.sessions).toBe(1);
    expect(b.gateway.sessions).toBe(1);

    // A held session's calls read nothing from the store.
    storeCalls.length = 0;
    for (let i = 0; i < 6; i += 1)
      await client.callTool({
        name: 'call_tool',
        arguments: { tool_id: 'notes.list_notes', arguments: {} },
      });
    expect(storeCalls).toEqual([]);

    // DELETE on one process ends it on both: the other drops its copy at its next check.
    await transport.terminateSession();
    await Promise.all([a.gateway.syncSessions(), b.gateway.syncSessions()]);
    expect(a.gateway.sessions + b.gateway.sessions).toBe(0);
    for (const gateway of [a, b])
      expect(
        (
          await postToSession(gateway.url.replace(/\/mcp$/, ''), ALICE, sessionId, {
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/list',
          })
        ).status,
      ).toBe(404);
    await client.close();
  });

  it("another user presenting a session's id gets the 404 of an unknown id on either gateway, and a warning without the id is logged", async () => {
    const { client, transport } = await connect(balancer.url);
    const sessionId = transport.sessionId as string;
    await client.listTools();
    const unknown = await postToSession(balancer.url, BOB, crypto.randomUUID(), {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
    });
    const unknownBody = await unknown.json();
    for (const gateway of served) {
      const refused = await postToSession(gateway.url.replace(/\/mcp$/, ''), BOB, sessionId, {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
      });
      expect(refused.status).toBe(404);
      expect(await refused.json()).toEqual(unknownBody);
    }
    const warnings = log.lines().filter((line) => /another user/.test(String(line.msg)));
    expect(warnings.length).toBeGreaterThanOrEqual(2);
    expect(warnings[0]).toMatchObject({ userId: 'bob' });
    expect(log.text()).not.toContain(sessionId);
    // Alice's session is untouched.
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await transport.terminateSession();
    await client.close();
  });

  it('a resume of a stream whose events another process keeps is refused with an error that names why, never a silent gap', async () => {
    const [a, b] = served as [Served, Served];
    const base = (gateway: Served) => gateway.url.replace(/\/mcp$/, '');
    const { client, transport } = await connect(base(a));
    const sessionId = transport.sessionId as string;
    // A call answered on A as a resumable stream: its priming event's id is A's alone.
    const called = await postToSession(base(a), ALICE, sessionId, {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'search_tools', arguments: { query: 'notes' } },
    });
    const priming = /^id: (\S+)$/m.exec(await called.text())?.[1] as string;
    expect(priming).toBeDefined();
    const resume = (gateway: Served) =>
      fetch(`${base(gateway)}/mcp`, {
        headers: {
          authorization: `Bearer ${ALICE}`,
          accept: 'text/event-stream',
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-11-25',
          'last-event-id': priming,
        },
      });
    const elsewhere = await resume(b);
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.json()).toMatchObject({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: expect.stringMatching(/not kept by this gateway process.*Send the request again/),
      },
    });
    // On A, where its events are, the stream resumes as before: its answer is replayed.
    const there = await resume(a);
    expect(there.status).toBe(200);
    expect(await there.text()).toContain('"id":7');
    await transport.terminateSession();
    await client.close();
  });

  it('the per-user cap counts the sessions of every process', async () => {
    const opened = [];
    for (let i = 0; i < 3; i += 1) opened.push(await connect(balancer.url));
    for (const gateway of served) {
      const refused = await initializeAt(gateway);
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
        /this user has 3 open/,
      );
    }
    for (const { client, transport } of opened) {
      await transport.terminateSession();
      await client.close();
    }
  });
});

describe('on MCP_AGENT_WIRE=sdk (the SDK transport alone)', () => {
  it('a session opened on one gateway is served by the other: list, describe and call', async () => {
    const pair = [await serve('sdk'), await serve('sdk')];
    const front = await startBalancer(
      pair.map((g) => g.url.replace(/\/mcp$/, '')),
      { sticky: false },
    );
    try {
      const { client, transport } = await connect(front.url);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('describe_tools');
      const described = await client.callTool({
        name: 'describe_tools',
        arguments: { tool_ids: ['notes.list_notes'] },
      });
      expect(described.isError).not.toBe(true);
      for (let i = 0; i < 3; i += 1) {
        const called = await client.callTool({
          name: 'call_tool',
          arguments: { tool_id: 'notes.list_notes', arguments: {} },
        });
        expect(called.isError, JSON.stringify(called)).not.toBe(true);
      }
      expect(pair.every((g) => g.gateway.sessions === 1)).toBe(true);
      await transport.terminateSession();
      await client.close();
    } finally {
      await front.close();
    }
  });
});

describe('idle expiry and the sweep over several processes', () => {
  const clock = createManualClock(Date.parse('2030-01-01T00:00:00Z'));
  const store = new MemoryGatewaySessionStore();
  const IDLE = 60_000;
  const pair: Served[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 2; i += 1)
      pair.push(
        await serveHttpGateway({
          stack,
          port: 0,
          verifier: new StaticTokenVerifier({ [ALICE]: 'alice' }),
          clock,
          sessionStore: store,
          limits: { sessionIdleMs: IDLE },
        }),
      );
  });
  afterAll(async () => {
    for (const gateway of pair) await gateway.close();
  });

  const initialize = async (gateway: Served) => {
    const response = await initializeAt(gateway);
    await response.text();
    return response.headers.get('mcp-session-id') as string;
  };
  const list = async (gateway: Served, sessionId: string) => {
    const response = await postToSession(gateway.url.replace(/\/mcp$/, ''), ALICE, sessionId, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/list',
    });
    await response.text();
    return response.status;
  };

  it('a session used on one process stays live for the others; idle on all, it expires everywhere and its row is swept', async () => {
    const [a, b] = pair as [Served, Served];
    const sessionId = await initialize(a);
    expect(store.size).toBe(1);
    expect(await list(b, sessionId)).toBe(200);
    // Used on B 40 s later, and written behind by B's sync.
    clock.advance(40_000);
    expect(await list(b, sessionId)).toBe(200);
    await b.gateway.syncSessions();
    // 80 s after A last saw it, A's copy expires; the session lives on (B used it 40 s ago).
    clock.advance(40_000);
    expect(await a.gateway.expireIdleSessions()).toBe(1);
    expect(a.gateway.sessions).toBe(0);
    expect(store.size).toBe(1);
    expect(await list(a, sessionId)).toBe(200);
    expect(a.gateway.sessions).toBe(1);
    // A's use of its restored copy is written too: B finds the session live 110 s after start.
    await a.gateway.syncSessions();
    clock.advance(30_000);
    await b.gateway.expireIdleSessions();
    expect(b.gateway.sessions).toBe(0);
    expect(await list(b, sessionId)).toBe(200);
    // Idle everywhere past the expiry and the write-behind margin: closed on both, row swept.
    clock.advance(IDLE + 15_001);
    await a.gateway.expireIdleSessions();
    await b.gateway.expireIdleSessions();
    expect(a.gateway.sessions + b.gateway.sessions).toBe(0);
    expect(store.size).toBe(0);
    expect(await list(a, sessionId)).toBe(404);
    expect(await list(b, sessionId)).toBe(404);
  });
});
