import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  startScriptedAnthropicServer,
  type ScriptedAnthropicServer,
} from '@mcp-agent/agent/testing';
import { serverFixtures } from '@mcp-agent/test-support';
import { apiCall, readBody } from './api/api-test-helpers.js';
import { postToSession } from './gateway/gateway-test-helpers.js';
import {
  gateway,
  metaCall,
  say,
  scriptedChildren,
  search,
  startTask,
  waitFor,
} from './scale-out-test-helpers.js';
import { startBalancer } from './testing/balancer.js';
import { startCluster, type Cluster, type ServerProcess } from './testing/server-cluster.js';

// Several server processes on one PostgreSQL: what a deployment behind a load balancer runs.
// CI starts PostgreSQL (.ci/run); there, a run without it fails instead of skipping.
const databaseUrl = process.env.MCP_AGENT_TEST_DATABASE_URL;
if ((databaseUrl === undefined || databaseUrl === '') && process.env.CI)
  throw new Error(
    'CI must run the multi-process scale-out tests on PostgreSQL: set MCP_AGENT_TEST_DATABASE_URL (.ci/run starts one).',
  );

const tokens = {
  alice: `alice-${randomBytes(12).toString('hex')}`,
  bob: `bob-${randomBytes(12).toString('hex')}`,
  carol: `carol-${randomBytes(12).toString('hex')}`,
  dave: `dave-${randomBytes(12).toString('hex')}`,
};
const LEASE_MS = 2_000;
let model: ScriptedAnthropicServer;
let cluster: Cluster;
let a: ServerProcess;
let b: ServerProcess;

// Alice's scripted issues server, added once (through A) and discovered.
let issuesAdded = false;
async function addIssues(token: string): Promise<void> {
  if (issuesAdded) return;
  issuesAdded = true;
  expect(
    (await apiCall(a.url, token, 'POST', '/v1/servers', cluster.scriptedServer('issues'))).status,
  ).toBe(201);
  await apiCall(a.url, token, 'GET', '/v1/servers/issues/status');
}

// Alice's session opened on `server` alone (through a round-robin balancer), with the issues
// tool described there; then the balancer sends to `server` and B.
async function describedThrough(server: ServerProcess) {
  await addIssues(tokens.alice);
  // The cluster lets a user make a burst of 3 tool calls, then 1 a second, counted over every
  // process (a killed process's lease is lost): the earlier tests' calls are paid back first, so
  // that a refused call here can only mean the session did not carry on.
  await sleep(3_500);
  const balancer = await startBalancer([server.url], { sticky: false });
  const client = await gateway(balancer.url, tokens.alice);
  const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId as string;
  expect((await metaCall(client, 'describe_tools', { tool_ids: ['issues.list_issues'] })).ok).toBe(
    true,
  );
  // B is ready to serve alice's issues server before the session moves there: what is measured
  // is the session carrying on, not B's first connection to the server racing the call.
  await apiCall(b.url, tokens.alice, 'GET', '/v1/servers/issues/status');
  balancer.setBackends([server.url, b.url]);
  return { client, sessionId, balancer };
}

const callIssues = (client: Client) =>
  metaCall(client, 'call_tool', { tool_id: 'issues.list_issues', arguments: {} });

// A call of the issues tool that must succeed; a failure shows what the gateway answered.
async function expectIssuesCalled(client: Client): Promise<void> {
  const answer = await callIssues(client);
  expect(answer, JSON.stringify(answer)).toMatchObject({ ok: true });
}

if (databaseUrl === undefined || databaseUrl === '')
  it.skip('PostgreSQL half skipped: set MCP_AGENT_TEST_DATABASE_URL=postgres://… to run the multi-process tests', () =>
    undefined);

describe.runIf(databaseUrl !== undefined && databaseUrl !== '')(
  'several server processes on one PostgreSQL',
  () => {
    beforeAll(async () => {
      model = await startScriptedAnthropicServer();
      cluster = await startCluster({
        fixtures: serverFixtures,
        databaseUrl: databaseUrl as string,
        tokens: Object.fromEntries(Object.entries(tokens).map(([user, token]) => [token, user])),
        script: {
          tools: [
            {
              name: 'list_issues',
              description: 'List the issues of a repository',
              inputSchema: { type: 'object' },
            },
          ],
        },
        flags: [
          '--task-lease-ms',
          String(LEASE_MS),
          '--max-running-tasks',
          '2',
          '--tool-calls-per-second',
          '1',
          '--tool-call-burst',
          '3',
        ],
        env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: model.url },
      });
      [a, b] = await Promise.all([cluster.start('A'), cluster.start('B')]);
    }, 120_000);
    afterAll(async () => {
      await cluster?.close();
      await model?.close();
    }, 60_000);

    it('SCALE-01 a task started on process A is read and streamed from process B, event by event, to its end', async () => {
      model.push(search, say('There is a tool for that.', 300));
      const id = await startTask(a, tokens.alice, 'Which tool lists issues?');
      const read = await apiCall(b.url, tokens.alice, 'GET', `/v1/tasks/${id}`);
      expect(read.status).toBe(200);
      expect(await read.json()).toMatchObject({ id, task: 'Which tool lists issues?' });
      const events = await (
        await apiCall(b.url, tokens.alice, 'GET', `/v1/tasks/${id}/events`)
      ).text();
      expect(events).toMatch(/event: step-start\ndata: [^\n]*\nid: 0\n/);
      expect(events).toMatch(/event: tool-call/);
      expect(events).toMatch(/event: observation/);
      expect(events).toMatch(
        /event: done\ndata: \{"status":"completed","answer":"There is a tool for that\."/,
      );
      expect(
        await readBody(await apiCall(b.url, tokens.alice, 'GET', `/v1/tasks/${id}`)),
      ).toMatchObject({
        status: 'completed',
        result: { answer: 'There is a tool for that.' },
      });
      // A client that lost B's stream resumes it on A after the last event it saw.
      const resumed = await (
        await fetch(`${a.url}/v1/tasks/${id}/events`, {
          headers: { authorization: `Bearer ${tokens.alice}`, 'last-event-id': '0' },
        })
      ).text();
      expect(resumed).not.toMatch(/\nid: 0\n/);
      expect(resumed).toMatch(/^event: tool-call\ndata: [^\n]*\nid: 1\n/);
      // Another tenant gets nothing of it, on either process.
      for (const server of [a, b])
        expect((await apiCall(server.url, tokens.bob, 'GET', `/v1/tasks/${id}`)).status).toBe(404);
    });

    it("API-02 a task running on A is cancelled through B, and stops within the owner's poll", async () => {
      const seen = model.requests.length;
      model.push(say('Too late.', 60_000));
      const id = await startTask(a, tokens.alice, 'Wait on the model.');
      await waitFor(async () => (model.requests.length > seen ? true : undefined), 10_000);
      const started = performance.now();
      const cancelled = await apiCall(b.url, tokens.alice, 'DELETE', `/v1/tasks/${id}`);
      const elapsed = performance.now() - started;
      expect(cancelled.status).toBe(200);
      expect(await cancelled.json()).toMatchObject({
        id,
        status: 'cancelled',
        result: { status: 'cancelled', error: { code: 'CANCELLED' } },
      });
      // A polls for cancel requests every 250 ms; the margin is for a loaded machine.
      expect(elapsed).toBeLessThan(2_000);
    });

    it('SCALE-02 a server added on A is callable on B within a second; removed on A, B stops its connection (LOAD-11)', async () => {
      const onB = await gateway(b, tokens.bob);
      // Before the add, B answers that bob has no such server (and may cache that answer).
      expect(
        (await metaCall(onB, 'describe_tools', { tool_ids: ['reports.list_issues'] })).ok,
      ).toBe(false);
      const added = await apiCall(
        a.url,
        tokens.bob,
        'POST',
        '/v1/servers',
        cluster.scriptedServer('reports'),
      );
      expect(added.status).toBe(201);
      // A connects it and records its tools, as the first use anywhere would.
      await apiCall(a.url, tokens.bob, 'GET', '/v1/servers/reports/status');
      const added_at = performance.now();
      const described = await waitFor(async () => {
        const view = await metaCall(onB, 'describe_tools', { tool_ids: ['reports.list_issues'] });
        return view.ok ? view : undefined;
      }, 5_000);
      const knownAfter = performance.now() - added_at;
      expect(described.value).toMatchObject({ tools: [{ tool_id: 'reports.list_issues' }] });
      const called = await metaCall(onB, 'call_tool', {
        tool_id: 'reports.list_issues',
        arguments: {},
      });
      const callableAfter = performance.now() - added_at;
      expect(called).toMatchObject({ ok: true });
      expect(knownAfter).toBeLessThan(1_000);
      // The call itself includes B's first connection (a child process): margin for a loaded machine.
      expect(callableAfter).toBeLessThan(5_000);
      expect(scriptedChildren(b).length).toBeGreaterThan(0);

      const removedAt = performance.now();
      expect((await apiCall(a.url, tokens.bob, 'DELETE', '/v1/servers/reports')).status).toBe(204);
      await waitFor(async () => (scriptedChildren(b).length === 0 ? true : undefined), 2_000);
      expect(performance.now() - removedAt).toBeLessThan(2_000);
      const refused = await metaCall(onB, 'call_tool', {
        tool_id: 'reports.list_issues',
        arguments: {},
      });
      expect(refused.ok).toBe(false);
      await onB.close();
    });

    it('SCALE-03 limits hold across A and B: tool calls per second, and running tasks per user', async () => {
      await apiCall(a.url, tokens.carol, 'POST', '/v1/servers', cluster.scriptedServer('notes'));
      await apiCall(a.url, tokens.carol, 'GET', '/v1/servers/notes/status');
      const clients = [await gateway(a, tokens.carol), await gateway(b, tokens.carol)];
      for (const client of clients)
        expect(
          (await metaCall(client, 'describe_tools', { tool_ids: ['notes.list_issues'] })).ok,
        ).toBe(true);
      // Burst 3, then 1 a second, for carol and this server, whichever process serves the call.
      const started = performance.now();
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          metaCall(clients[i % 2] as Client, 'call_tool', {
            tool_id: 'notes.list_issues',
            arguments: {},
          }),
        ),
      );
      const elapsed = performance.now() - started;
      const ok = outcomes.filter((o) => o.ok).length;
      expect(ok).toBeGreaterThanOrEqual(3);
      // Counted per process, each would have let its own burst through (6 at least).
      expect(ok).toBeLessThanOrEqual(3 + Math.floor(elapsed / 1_000));
      expect(outcomes.filter((o) => !o.ok)[0]?.value).toMatchObject({
        error: { code: 'RATE_LIMITED' },
      });
      for (const client of clients) await client.close();

      // Two running tasks at most, counted in the database: the third is refused on either process.
      const seen = model.requests.length;
      model.push(say('One.', 60_000), say('Two.', 60_000));
      const first = await startTask(a, tokens.carol, 'One.');
      const second = await startTask(b, tokens.carol, 'Two.');
      await waitFor(async () => (model.requests.length >= seen + 2 ? true : undefined), 10_000);
      for (const server of [a, b]) {
        const refused = await apiCall(server.url, tokens.carol, 'POST', '/v1/tasks', {
          task: 'Three.',
        });
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toBe('5');
        expect((await readBody(refused)).error.message).toMatch(/already runs 2 tasks/);
      }
      expect((await apiCall(b.url, tokens.carol, 'DELETE', `/v1/tasks/${first}`)).status).toBe(200);
      expect((await apiCall(a.url, tokens.carol, 'DELETE', `/v1/tasks/${second}`)).status).toBe(
        200,
      );
    });

    it('a gateway session needs no sticky routing: through a round-robin balancer, initialize, list, search, describe and call alternate between A and B, and another user gets 404 on either', async () => {
      await addIssues(tokens.alice);
      const balancer = await startBalancer([a.url, b.url], { sticky: false });
      try {
        const client = await gateway(balancer.url, tokens.alice);
        const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId as string;
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
        expect((client.transport as StreamableHTTPClientTransport).sessionId).toBe(sessionId);
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

    it('a gateway session whose process is killed (SIGKILL) goes on on another process, without a new initialize', async () => {
      const c = await cluster.start('C');
      const { client, sessionId, balancer } = await describedThrough(c);
      try {
        c.kill('SIGKILL');
        await c.exited;
        // B never saw this session: it loads it, with the tool described on C.
        for (let i = 0; i < 2; i += 1) await expectIssuesCalled(client);
        expect((await client.listTools()).tools.length).toBeGreaterThan(0);
        expect((client.transport as StreamableHTTPClientTransport).sessionId).toBe(sessionId);
        await client.close();
      } finally {
        await balancer.close();
      }
    }, 60_000);

    it('a gateway session whose process is stopped (SIGTERM, a rolling restart) goes on on another process, without a new initialize', async () => {
      const d = await cluster.start('D2', ['--drain-ms', '2000']);
      const { client, sessionId, balancer } = await describedThrough(d);
      try {
        d.kill('SIGTERM');
        // Calls while it drains and after it is gone: all answered, by D or by B.
        await expectIssuesCalled(client);
        expect(await d.exited, d.log()).toBe(0);
        await expectIssuesCalled(client);
        expect((await client.listTools()).tools.length).toBeGreaterThan(0);
        expect((client.transport as StreamableHTTPClientTransport).sessionId).toBe(sessionId);
        await client.close();
      } finally {
        await balancer.close();
      }
    }, 60_000);

    it('SCALE-04 a process killed mid-task (kill -9) leaves its task failed with the reason, within the lease, as seen from another process', async () => {
      const c = await cluster.start('C');
      const seen = model.requests.length;
      model.push(say('Never answered.', 60_000));
      const id = await startTask(c, tokens.dave, 'Wait for ever.');
      await waitFor(async () => (model.requests.length > seen ? true : undefined), 10_000);
      const stream = fetch(`${b.url}/v1/tasks/${id}/events`, {
        headers: { authorization: `Bearer ${tokens.dave}` },
      }).then((response) => response.text());
      c.kill('SIGKILL');
      const killedAt = performance.now();
      await c.exited;
      const failed = await waitFor(async () => {
        const task = await readBody(await apiCall(b.url, tokens.dave, 'GET', `/v1/tasks/${id}`));
        return task.status === 'failed' ? task : undefined;
      }, 15_000);
      // The lease (2 s) plus half a lease between sweeps, and a margin for a loaded machine.
      expect(performance.now() - killedAt).toBeLessThan(LEASE_MS * 1.5 + 3_000);
      expect(failed).toMatchObject({
        status: 'failed',
        result: {
          status: 'failed',
          error: {
            code: 'INTERNAL',
            message: expect.stringMatching(/process running this task stopped before it finished/),
          },
        },
      });
      // The follower on B saw it end the same way.
      expect(await stream).toMatch(/event: done\ndata: \{"status":"failed"/);
      // Nothing half-written: the task is finished with a result, and no task of the dead
      // process is left running.
      expect(
        (failed.result as { error: { details: { reason: string } } }).error.details.reason,
      ).toBe('process_lost');
    }, 60_000);

    it('LIFE-01 SIGTERM drains: unready at once, a short task finishes, a long one is cancelled saying why, the process exits 0', async () => {
      const d = await cluster.start('D', ['--drain-ms', '3000']);
      const seen = model.requests.length;
      model.push((request) =>
        JSON.stringify(request.body.messages).includes('Short')
          ? say('Done in time.', 800)
          : say('Too slow.', 60_000),
      );
      model.push((request) =>
        JSON.stringify(request.body.messages).includes('Short')
          ? say('Done in time.', 800)
          : say('Too slow.', 60_000),
      );
      const short = await startTask(d, tokens.dave, 'Short.');
      const long = await startTask(d, tokens.dave, 'Long.');
      await waitFor(async () => (model.requests.length >= seen + 2 ? true : undefined), 10_000);
      d.kill('SIGTERM');
      const ready = await waitFor(async () => {
        const response = await fetch(`${d.url}/ready`).catch(() => undefined);
        return response === undefined ? 'closed' : response.status === 503 ? 'unready' : undefined;
      }, 5_000);
      expect(['unready', 'closed']).toContain(ready);
      expect(await d.exited, d.log()).toBe(0);
      expect(
        await readBody(await apiCall(b.url, tokens.dave, 'GET', `/v1/tasks/${short}`)),
      ).toMatchObject({
        status: 'completed',
        result: { answer: 'Done in time.' },
      });
      expect(
        await readBody(await apiCall(b.url, tokens.dave, 'GET', `/v1/tasks/${long}`)),
      ).toMatchObject({
        status: 'cancelled',
        result: {
          error: { code: 'CANCELLED', message: expect.stringMatching(/server shut down/) },
        },
      });
    }, 60_000);
  },
);
