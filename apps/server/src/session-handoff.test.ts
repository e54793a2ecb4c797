import { expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { apiCall } from './api/api-test-helpers.js';
import { postToSession } from './gateway/gateway-test-helpers.js';
import {
  describeOnPostgres,
  gateway,
  metaCall,
  tokensOf,
  useCluster,
} from './scale-out-test-helpers.js';
import { startBalancer } from './testing/balancer.js';
import type { ServerProcess } from './testing/server-cluster.js';

// A gateway session served by another process than the one that opened it, on several server
// processes on one PostgreSQL behind a balancer that is not sticky. Each test is its own user,
// with the issues server of its own: the cluster lets a user make a burst of 3 tool calls, then
// 1 a second, counted over every process, so no test waits for another's calls to be paid back,
// and a refused call can only mean the session did not carry on.
const tokens = tokensOf('alice', 'bob', 'erin', 'frank');
type User = keyof typeof tokens;

const sessionIdOf = (client: Client) =>
  (client.transport as StreamableHTTPClientTransport).sessionId as string;

const callIssues = (client: Client) =>
  metaCall(client, 'call_tool', { tool_id: 'issues.list_issues', arguments: {} });

// A call of the issues tool that must succeed; a failure shows what the gateway answered.
async function expectIssuesCalled(client: Client): Promise<void> {
  const answer = await callIssues(client);
  expect(answer, JSON.stringify(answer)).toMatchObject({ ok: true });
}

describeOnPostgres('a gateway session on several server processes on one PostgreSQL', () => {
  const setup = useCluster(tokens);

  // The user's scripted issues server, added through A and discovered.
  async function addIssues(user: User): Promise<void> {
    const { a, cluster } = setup;
    expect(
      (await apiCall(a.url, tokens[user], 'POST', '/v1/servers', cluster.scriptedServer('issues')))
        .status,
    ).toBe(201);
    await apiCall(a.url, tokens[user], 'GET', '/v1/servers/issues/status');
  }

  // The user's session opened on `server` alone (through a round-robin balancer), with the
  // issues tool described there; then the balancer sends to `server` and B.
  async function describedThrough(server: ServerProcess, user: User) {
    const { b } = setup;
    await addIssues(user);
    const balancer = await startBalancer([server.url], { sticky: false });
    const client = await gateway(balancer.url, tokens[user]);
    const sessionId = sessionIdOf(client);
    expect(
      (await metaCall(client, 'describe_tools', { tool_ids: ['issues.list_issues'] })).ok,
    ).toBe(true);
    // B is ready to serve the user's issues server before the session moves there: what is
    // measured is the session carrying on, not B's first connection to the server racing the call.
    await apiCall(b.url, tokens[user], 'GET', '/v1/servers/issues/status');
    balancer.setBackends([server.url, b.url]);
    return { client, sessionId, balancer };
  }

  it('a gateway session needs no sticky routing: through a round-robin balancer, initialize, list, search, describe and call alternate between A and B, and another user gets 404 on either', async () => {
    const { a, b } = setup;
    await addIssues('alice');
    const balancer = await startBalancer([a.url, b.url], { sticky: false });
    try {
      const client = await gateway(balancer.url, tokens.alice);
      const sessionId = sessionIdOf(client);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('call_tool');
      const found = await metaCall(client, 'search_tools', { query: 'list issues' });
      expect(JSON.stringify(found.value)).toContain('issues.list_issues');
      expect(
        (await metaCall(client, 'describe_tools', { tool_ids: ['issues.list_issues'] })).ok,
      ).toBe(true);
      // Two calls: the cluster allows a burst of 3 tool calls, then 1 a second.
      for (let i = 0; i < 2; i += 1) await expectIssuesCalled(client);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      // Every request went to the next process: both served this one session.
      const { forwarded } = balancer.stats();
      expect(forwarded[a.url]).toBeGreaterThanOrEqual(3);
      expect(forwarded[b.url]).toBeGreaterThanOrEqual(3);
      expect(sessionIdOf(client)).toBe(sessionId);
      // Bob with Alice's session id: the 404 of an unknown id, on either process.
      for (const server of [a, b]) {
        const refused = await postToSession(server.url, tokens.bob, sessionId, {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/list',
        });
        expect(refused.status).toBe(404);
        expect(await refused.json()).toEqual({
          jsonrpc: '2.0',
          error: { code: -32001, message: 'Session not found' },
          id: null,
        });
      }
      expect(a.log() + b.log()).toMatch(/gateway session id of another user was presented/);
      expect(a.log() + b.log()).not.toContain(sessionId);
      await client.close();
    } finally {
      await balancer.close();
    }
  });

  // A process that stops, killed outright or drained by a rolling restart: its sessions go on on
  // B at their next request. Two calls in all, whether or not one is sent while it drains.
  it.each([
    {
      how: 'killed (SIGKILL)',
      user: 'erin',
      name: 'C',
      flags: [],
      signal: 'SIGKILL',
      exit: 'SIGKILL',
      callsWhileStopping: 0,
    },
    {
      how: 'stopped (SIGTERM, a rolling restart)',
      user: 'frank',
      name: 'D',
      flags: ['--drain-ms', '2000'],
      signal: 'SIGTERM',
      exit: 0,
      callsWhileStopping: 1,
    },
  ] as const)(
    'a gateway session whose process is $how goes on on another process, without a new initialize',
    async ({ user, name, flags, signal, exit, callsWhileStopping }) => {
      const stopping = await setup.cluster.start(name, flags);
      const { client, sessionId, balancer } = await describedThrough(stopping, user);
      try {
        stopping.kill(signal);
        // Calls while it drains: answered by it or by B.
        for (let i = 0; i < callsWhileStopping; i += 1) await expectIssuesCalled(client);
        expect(await stopping.exited, stopping.log()).toBe(exit);
        // After it is gone, B (which never saw this session) loads it, with the tool described there.
        for (let i = callsWhileStopping; i < 2; i += 1) await expectIssuesCalled(client);
        expect((await client.listTools()).tools.length).toBeGreaterThan(0);
        expect(sessionIdOf(client)).toBe(sessionId);
        await client.close();
      } finally {
        await balancer.close();
      }
    },
    60_000,
  );
});
