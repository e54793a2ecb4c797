import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { createManualClock } from '@mcp-agent/core/testing';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { openRegistry, type Registry } from '@mcp-agent/registry';
import { GatewaySession, liveChildren, serverFixtures } from '@mcp-agent/test-support';
import { serveHttpApi, type ServedApi } from './api/serve-api.js';
import { StaticTokenVerifier } from './auth/token-verifier.js';

const SESSION_IDLE_MS = 30 * 60_000;
const CONNECTION_IDLE_MS = 10 * 60_000;
const home = mkdtempSync(join(tmpdir(), 'mcp-memory-comes-back-'));
const key = randomBytes(32).toString('base64');
const clock = createManualClock();
const USERS = ['caller', 'searcher', 'leaver', 'live'] as const;
const tokens = Object.fromEntries(
  USERS.map((user) => [user, `${user}-${randomBytes(12).toString('hex')}`]),
);
let stack: AgentStack;
let served: ServedApi;
// Another process on the same SQLite home: what the CLI beside the server is.
let cli: Registry;

// Live MCP server processes of this test, by tenant (each tenant's script names it).
function children(user?: string): number {
  const script = join(home, user === undefined ? 'script-' : `script-${user}.json`);
  return liveChildren(process.pid, serverFixtures.scripted, script).length;
}

const held = () => ({
  ...served.gateway.stats(),
  connections: stack.pool.size,
  children: children(),
  runningTasks: served.tasks.running,
});

beforeAll(async () => {
  stack = await openAgentStack({
    home,
    env: { MCP_AGENT_SECRET_KEY: key },
    sandbox: false,
    // Maintenance timers are real; the test sweeps when its clock says so.
    pool: { clock, idleMs: CONNECTION_IDLE_MS, pingIntervalMs: 0 },
  });
  for (const user of USERS) {
    const script = join(home, `script-${user}.json`);
    writeFileSync(
      script,
      JSON.stringify({
        tools: [
          {
            name: 'list_issues',
            description: 'List the open issues of a repository',
            inputSchema: { type: 'object', properties: { repo: { type: 'string' } } },
          },
        ],
      }),
    );
    await stack.registry.addServer(createContext({ userId: user }), {
      id: 'tracker',
      transport: 'stdio',
      command: process.execPath,
      args: [serverFixtures.scripted, script],
    });
  }
  served = await serveHttpApi({
    stack,
    port: 0,
    verifier: new StaticTokenVerifier(Object.fromEntries(USERS.map((u) => [tokens[u], u]))),
    // Stored events outlive the test's half hour here; their own age bound is GW-09's test's.
    limits: { sessionIdleMs: SESSION_IDLE_MS, eventStore: { maxAgeMs: SESSION_IDLE_MS } },
    // The test registers its own fixture for each tenant.
    trustTenantCommands: true,
    clock,
  });
  cli = await openRegistry({ home, env: { MCP_AGENT_SECRET_KEY: key } });
}, 60_000);

afterAll(async () => {
  await cli?.close();
  await served?.close();
  await stack?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('what a served process holds comes back once the load stops', () => {
  it('LOAD-12 closed, abandoned and expired sessions, their events, idle and removed connections and their processes are released; a live tenant keeps what it uses', async () => {
    const session = async (user: (typeof USERS)[number], call: boolean) => {
      const gateway = new GatewaySession(served.url, tokens[user] as string);
      await gateway.open();
      expect((await gateway.call('search_tools', { query: 'open issues' })).ok).toBe(true);
      if (call) {
        expect(
          (await gateway.call('describe_tools', { tool_ids: ['tracker.list_issues'] })).ok,
        ).toBe(true);
        const called = await gateway.call('call_tool', {
          tool_id: 'tracker.list_issues',
          arguments: { repo: 'a/b' },
        });
        expect(called, called.error).toMatchObject({ ok: true });
      }
      return gateway;
    };
    // The caller closes its session; the searcher (LOAD-10) and the leaver walk away from theirs.
    await (await session('caller', true)).close();
    await session('searcher', false);
    await session('leaver', true);
    const live = await session('live', true);
    expect(held()).toMatchObject({ sessions: 3, connections: 4, children: 4, runningTasks: 0 });
    expect(held().events).toBeGreaterThan(0);

    // The leaver's server is removed by the CLI beside the server (LOAD-11): its process stops
    // without waiting for any timeout.
    await cli.removeServer(createContext({ userId: 'leaver' }), 'tracker');
    await expect.poll(() => children('leaver'), { timeout: 5_000 }).toBe(0);
    expect(held()).toMatchObject({ connections: 3, children: 3 });

    // Half the idle timeouts later the live tenant calls again; nobody else does anything.
    clock.advance(CONNECTION_IDLE_MS / 2);
    expect(
      (await live.call('call_tool', { tool_id: 'tracker.list_issues', arguments: {} })).ok,
    ).toBe(true);
    clock.advance(CONNECTION_IDLE_MS / 2 + 1);
    expect(await stack.pool.evictIdle()).toBe(2);
    await expect.poll(() => children(), { timeout: 10_000 }).toBe(1);
    expect(children('live')).toBe(1);

    clock.advance(SESSION_IDLE_MS - CONNECTION_IDLE_MS);
    expect(await served.gateway.expireIdleSessions()).toBe(2);
    // Exactly what the live tenant needs: its session (with its own events), its connection and
    // its server's process.
    expect(held()).toMatchObject({ sessions: 1, connections: 1, children: 1, runningTasks: 0 });
    const liveEvents = held().events;
    expect(liveEvents).toBeGreaterThan(0);

    // The live tenant leaves too: nothing is held any more.
    await live.close();
    expect(held()).toMatchObject({ sessions: 0, events: 0, eventBytes: 0 });
    clock.advance(CONNECTION_IDLE_MS + 1);
    expect(await stack.pool.evictIdle()).toBe(1);
    await expect.poll(() => children(), { timeout: 10_000 }).toBe(0);
    expect(held()).toEqual({
      sessions: 0,
      events: 0,
      eventBytes: 0,
      connections: 0,
      children: 0,
      runningTasks: 0,
    });
  });
});
