import { describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { TASK_METER, TaskMeter } from '@mcp-agent/registry';
import {
  addScripted,
  alice,
  bob,
  clock,
  dispatcher,
  expectError,
  githubScript,
  serverCalls,
  stack,
  useDispatchStack,
} from '../dispatch-test-helpers.js';
import { changedToolLink, MemoryToolApprovals } from './changed-tool-link.js';
import { DispatchMetrics } from './metrics-link.js';
import { policyLink } from './policy-link.js';
import { quotaLink } from './quota-link.js';
import { rateLimitLink, type RateLimits } from './rate-limit-link.js';
import { usageLink } from './usage-link.js';
import { operationCall } from '../server-operations.js';

useDispatchStack();

describe('middleware links', () => {
  it('policy: deny per tool, approval by the host, destructive annotations, callers', async () => {
    const approvals: string[] = [];
    const d = dispatcher({
      links: [
        policyLink(
          {
            tools: { 'github.fails': 'deny', 'github.typed': 'approve' },
            annotations: { destructiveHint: 'approve' },
            callers: { 'github.create_issue': ['model'] },
          },
          async (_ctx, call) => {
            approvals.push(call.toolId);
            return call.toolId === 'github.typed';
          },
        ),
      ],
    });
    expectError(
      await d.dispatchTool(alice, 'github.fails', {}),
      'POLICY_DENIED',
      /denied by policy/,
    );
    expect(await d.dispatchTool(alice, 'github.typed', {})).toMatchObject({ ok: true });
    expectError(
      await d.dispatchTool(alice, 'github.delete_repo', {}),
      'POLICY_DENIED',
      /not approved/,
    );
    expect(approvals).toEqual(['github.typed', 'github.delete_repo']);
    expectError(
      await d.dispatchTool(
        alice,
        'github.create_issue',
        { repo: 'a/b', title: 't' },
        { caller: 'code' },
      ),
      'POLICY_DENIED',
      /sandboxed code/,
    );
    expect(
      await d.dispatchTool(alice, 'github.create_issue', { repo: 'a/b', title: 't' }),
    ).toMatchObject({ ok: true });
    expect(await serverCalls()).toBe(2);
  });

  it('policy: approval required with no approver configured is denied', async () => {
    const d = dispatcher({ links: [policyLink({ tools: { 'github.*': 'approve' } })] });
    expectError(
      await d.dispatchTool(alice, 'github.typed', {}),
      'POLICY_DENIED',
      /no approver is configured/,
    );
  });

  it('POI-05 a readOnlyHint from the server does not lift a deny', async () => {
    await addScripted(alice, 'shady', {
      tools: [
        { name: 'wipe', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
      ],
    });
    const d = dispatcher({ links: [policyLink({ tools: { 'shady.*': 'deny' } })] });
    expectError(await d.dispatchTool(alice, 'shady.wipe', {}), 'POLICY_DENIED');
  });

  it('rate limit per tenant and server, with retry-after', async () => {
    const d = dispatcher({
      links: [rateLimitLink({ servers: { github: { ratePerSecond: 1, burst: 2 } } })],
    });
    const call = () => d.dispatchTool(alice, 'github.typed', {});
    expect((await call()).ok).toBe(true);
    expect((await call()).ok).toBe(true);
    const limited = await call();
    expectError(limited, 'RATE_LIMITED', /try again in 1000 ms/);
    expect(!limited.ok && limited.error.details.retryAfterMs).toBe(1_000);
    clock.advance(1_000);
    expect((await call()).ok).toBe(true);
  });

  it('rate limits under their name before issue 31 (`providers`) still apply', async () => {
    const old = { providers: { github: { ratePerSecond: 1, burst: 1 } } } as RateLimits;
    const d = dispatcher({ links: [rateLimitLink(old)] });
    expect((await d.dispatchTool(alice, 'github.typed', {})).ok).toBe(true);
    expectError(await d.dispatchTool(alice, 'github.typed', {}), 'RATE_LIMITED');
  });

  it('rate limit counted in the database: two dispatchers on one registry share the limit', async () => {
    const limits = { servers: { github: { ratePerSecond: 1, burst: 2 } } };
    const first = dispatcher({ links: [rateLimitLink(limits, stack.registry.rateLimitCounter)] });
    const second = dispatcher({ links: [rateLimitLink(limits, stack.registry.rateLimitCounter)] });
    expect((await first.dispatchTool(alice, 'github.typed', {})).ok).toBe(true);
    expect((await second.dispatchTool(alice, 'github.typed', {})).ok).toBe(true);
    expectError(await first.dispatchTool(alice, 'github.typed', {}), 'RATE_LIMITED');
    expectError(await second.dispatchTool(alice, 'github.typed', {}), 'RATE_LIMITED');
    clock.advance(1_000);
    expect((await second.dispatchTool(alice, 'github.typed', {})).ok).toBe(true);
  });

  it('RDY-06 / POI-02 a tool changed since approval is held until approved again', async () => {
    const approvals = new MemoryToolApprovals();
    const d = dispatcher({ links: [changedToolLink(approvals)] });
    expect((await d.dispatchTool(alice, 'github.typed', {})).ok).toBe(true);
    const changed = githubScript.tools.map((t) =>
      t.name === 'typed' ? { ...t, description: 'Now also exfiltrates' } : t,
    );
    await stack.registry.replaceCatalog(alice, 'github', changed);
    const held = await d.dispatchTool(alice, 'github.typed', {});
    expectError(held, 'POLICY_DENIED', /changed since it was approved/);
    const current = (await stack.registry.storedTools(alice, 'github')).find(
      (t) => t.name === 'typed',
    )?.contentHash as string;
    await approvals.approve(alice, 'github.typed', current);
    expect((await d.dispatchTool(alice, 'github.typed', {})).ok).toBe(true);
  });

  it('usage: every call that reaches a server is recorded for its tenant, task and server', async () => {
    const d = dispatcher({ links: [usageLink(stack.registry)] });
    const meter = new TaskMeter();
    const task = createContext({ userId: 'alice', clock }).with(TASK_METER, meter);
    await d.dispatchTool(task, 'github.typed', {});
    await d.dispatchTool(task, 'github.fails', {});
    // Refused before the chain (bad arguments): no call, nothing recorded.
    await d.dispatchTool(task, 'github.create_issue', { repo: 7 });
    const recorded = await stack.registry.taskUsage(alice, task.requestId);
    expect(recorded.servers).toEqual([
      { server: 'github', calls: 2, errors: 1, durationMs: expect.any(Number) },
    ]);
    expect(meter.serverUsage).toEqual([
      { server: 'github', calls: 2, errors: 1, durationMs: expect.any(Number) },
    ]);
    expect((await stack.registry.taskUsage(bob, task.requestId)).servers).toEqual([]);
  });

  it('TEN-11 quota: the call past maxCallsPerHour is refused with QUOTA_EXCEEDED and never reaches the server', async () => {
    const d = dispatcher({
      links: [quotaLink(stack.registry), usageLink(stack.registry)],
    });
    await stack.registry.setQuotaLimits(alice, { maxCallsPerHour: 2 });
    const before = await serverCalls();
    expect((await d.dispatchTool(alice, 'github.typed', {})).ok).toBe(true);
    expect((await d.dispatchTool(alice, 'github.typed', {})).ok).toBe(true);
    const refused = await d.dispatchTool(alice, 'github.typed', {});
    expectError(
      refused,
      'QUOTA_EXCEEDED',
      /maxCallsPerHour is 2 \(used 2 this hour\)\. It resets at/,
    );
    expect(!refused.ok && refused.error.details).toMatchObject({
      limit: 'maxCallsPerHour',
      value: 2,
      retryAfterMs: expect.any(Number),
    });
    expect((await serverCalls()) - before).toBe(2);
    // Bob's count is his own.
    await addScripted(bob);
    expect((await d.dispatchTool(bob, 'github.typed', {})).ok).toBe(true);
  });

  it('TEN-11 quota: a call within known limits and a held lease goes on without an await, counted exactly', async () => {
    const link = quotaLink(stack.registry);
    await stack.registry.setQuotaLimits(alice, { maxCallsPerHour: 80 });
    const call = operationCall(
      'resources/list',
      'github',
      {},
      { caller: 'model', signal: alice.signal },
    );
    let reached = 0;
    const next = () => {
      reached += 1;
      return Promise.resolve({ content: [] });
    };
    // Each call, as it is made: did it reach `next` before the link returned?
    const atOnce: boolean[] = [];
    for (let i = 0; i < 12; i++) {
      const before = reached;
      const pending = link(alice, call, next);
      atOnce.push(reached > before);
      await pending;
    }
    // The first reads the limits and leases a block of 10 (an eighth of 80); the next 9 spend
    // it at once; the 11th leases again.
    expect(atOnce).toEqual([false, ...Array<boolean>(9).fill(true), false, true]);
    expect(reached).toBe(12);
    // The held calls not spent are not counted as used.
    expect((await stack.registry.quotaStatus(alice)).callsThisHour).toBe(12);
  });

  it('TEN-11 quota: a task without a thread may call the tools of maxServersPerThread servers', async () => {
    await addScripted(alice, 'mail', {
      tools: [{ name: 'send', inputSchema: { type: 'object' } }],
    });
    const d = dispatcher({ links: [quotaLink(stack.registry)] });
    await stack.registry.setQuotaLimits(alice, { maxServersPerThread: 1 });
    const task = createContext({ userId: 'alice', clock }).with(TASK_METER, new TaskMeter());
    expect((await d.dispatchTool(task, 'github.typed', {})).ok).toBe(true);
    expect((await d.dispatchTool(task, 'github.typed', {})).ok).toBe(true);
    expectError(
      await d.dispatchTool(task, 'mail.send', {}),
      'QUOTA_EXCEEDED',
      /maxServersPerThread is 1/,
    );
    // The next task starts from none.
    const next = createContext({ userId: 'alice', clock }).with(TASK_METER, new TaskMeter());
    expect((await d.dispatchTool(next, 'mail.send', {})).ok).toBe(true);
  });

  it('metrics count calls and errors per tool', async () => {
    const metrics = new DispatchMetrics();
    const d = dispatcher({ links: [metrics.link] });
    await d.dispatchTool(alice, 'github.typed', {});
    await d.dispatchTool(alice, 'github.fails', {});
    expect(metrics.get('github.typed')).toMatchObject({ calls: 1, errors: 0 });
    expect(metrics.get('github.fails')).toMatchObject({ calls: 1, errors: 1 });
    // GW-09: a call its caller cancelled is counted, but not as an error.
    const cancel = new AbortController();
    cancel.abort();
    await d.dispatchTool(
      createContext({ userId: 'alice', signal: cancel.signal }),
      'github.fails',
      {},
    );
    expect(metrics.get('github.fails')).toMatchObject({ calls: 2, errors: 1 });
  });

  it('never throws past its boundary, even when a link throws a non-error', async () => {
    const d = dispatcher({
      links: [
        async () => {
          throw 'a string';
        },
      ],
    });
    expectError(await d.dispatchTool(alice, 'github.typed', {}), 'INTERNAL', /a string/);
  });
});
