import { expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { apiCall, readBody } from './api/api-test-helpers.js';
import {
  describeOnPostgres,
  gateway,
  LEASE_MS,
  metaCall,
  say,
  scriptedChildren,
  search,
  startTask,
  tokensOf,
  useCluster,
  waitFor,
} from './scale-out-test-helpers.js';

// Several server processes on one PostgreSQL, what a deployment behind a load balancer runs:
// tasks, servers, limits and shutdown across processes. A gateway session served by another
// process than the one that opened it: session-handoff.test.ts.
const tokens = tokensOf('alice', 'bob', 'carol', 'dave');

describeOnPostgres('several server processes on one PostgreSQL', () => {
  const setup = useCluster(tokens);

  it('SCALE-01 a task started on process A is read and streamed from process B, event by event, to its end', async () => {
    const { a, b, model } = setup;
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
    const { a, b, model } = setup;
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
    const { a, b, cluster } = setup;
    const onB = await gateway(b, tokens.bob);
    // Before the add, B answers that bob has no such server (and may cache that answer).
    expect((await metaCall(onB, 'describe_tools', { tool_ids: ['reports.list_issues'] })).ok).toBe(
      false,
    );
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
    const { a, b, cluster, model } = setup;
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
    expect((await apiCall(a.url, tokens.carol, 'DELETE', `/v1/tasks/${second}`)).status).toBe(200);
  });

  it('SCALE-04 a process killed mid-task (kill -9) leaves its task failed with the reason, within the lease, as seen from another process', async () => {
    const { b, cluster, model } = setup;
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
    expect((failed.result as { error: { details: { reason: string } } }).error.details.reason).toBe(
      'process_lost',
    );
  }, 60_000);

  it('LIFE-01 SIGTERM drains: unready at once, a short task finishes, a long one is cancelled saying why, the process exits 0', async () => {
    const { b, cluster, model } = setup;
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
});
