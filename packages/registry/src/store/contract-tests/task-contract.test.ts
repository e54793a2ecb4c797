import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext, type MCPTaskResult, type StepEvent } from '@mcp-agent/core';
import { createManualClock } from '@mcp-agent/core/testing';
import type { Registry } from '../../index.js';
import { dialects, reportSkippedPostgres } from './dialects.js';

const clock = createManualClock(Date.parse('2030-01-01T00:00:00Z'));
const alice = createContext({ userId: 'alice', clock });
const bob = createContext({ userId: 'bob', clock });
const LEASE = 10_000;
const task = (text: string, maxRunning = 4) => ({
  task: text,
  owner: 'proc_a',
  leaseMs: LEASE,
  maxRunning,
  keepFinished: 100,
});
const result = (status: MCPTaskResult['status'], answer: string | null): MCPTaskResult => ({
  status,
  answer,
  steps: [],
  toolsUsed: [],
  usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
  durationMs: 5,
  requestId: 'r1',
});
const step = (n: number): StepEvent => ({ type: 'step-start', requestId: 'r1', step: n });

async function admitted(registry: Registry, ctx = alice, input = task('Do it.')) {
  const admission = await registry.tasks.admit(ctx, input);
  if (!admission.admitted) throw new Error(`refused: ${admission.running} running`);
  return admission.record;
}

reportSkippedPostgres();

describe.each(dialects)('durable tasks on $name', (dialect) => {
  let registry: Registry;
  beforeAll(async () => {
    registry = await dialect.open();
  });
  afterAll(async () => {
    await registry?.close();
  });

  it('a task is stored running, its events in order, then its result; another tenant sees none of it', async () => {
    const record = await admitted(registry);
    expect(record).toMatchObject({ userId: 'alice', status: 'running', owner: 'proc_a' });
    await registry.tasks.appendEvents(alice, record.id, [
      { seq: 0, event: step(1) },
      { seq: 1, event: step(2) },
    ]);
    await registry.tasks.appendEvents(alice, record.id, [{ seq: 2, event: step(3) }]);
    expect((await registry.tasks.events(alice, record.id)).map((e) => e.seq)).toEqual([0, 1, 2]);
    expect(await registry.tasks.events(alice, record.id, { after: 1 })).toEqual([
      { seq: 2, event: step(3) },
    ]);
    expect(await registry.tasks.finish(alice, record.id, 'proc_a', result('completed', 'ok'))).toBe(
      true,
    );
    // Finished once: a second finish (a late duplicate, another owner) changes nothing.
    expect(await registry.tasks.finish(alice, record.id, 'proc_a', result('failed', null))).toBe(
      false,
    );
    expect(await registry.tasks.get(alice, record.id)).toMatchObject({
      status: 'completed',
      result: { answer: 'ok' },
      eventCount: 3,
      finishedAt: expect.any(String),
    });
    expect(await registry.tasks.get(bob, record.id)).toBeUndefined();
    expect(await registry.tasks.events(bob, record.id)).toEqual([]);
    expect(await registry.tasks.requestCancel(bob, record.id)).toBeUndefined();
    expect((await registry.tasks.list(bob)).map((t) => t.id)).not.toContain(record.id);
    expect((await registry.tasks.list(alice)).map((t) => t.id)).toContain(record.id);
  });

  it('the running-task cap counts running tasks with a live lease, per user', async () => {
    const carol = createContext({ userId: 'carol', clock });
    const first = await admitted(registry, carol, task('One.', 2));
    await admitted(registry, carol, task('Two.', 2));
    expect(await registry.tasks.admit(carol, task('Three.', 2))).toEqual({
      admitted: false,
      running: 2,
    });
    // Another user is not counted with carol.
    await admitted(registry, createContext({ userId: 'dave', clock }), task('Mine.', 2));
    await registry.tasks.finish(carol, first.id, 'proc_a', result('completed', 'done'));
    const third = await admitted(registry, carol, task('Three.', 2));
    expect(third.status).toBe('running');
  });

  it('a cancel request from any process reaches the owner; finishing clears it', async () => {
    const record = await admitted(registry);
    expect(await registry.tasks.cancelRequests('proc_a')).not.toContain(record.id);
    expect(await registry.tasks.requestCancel(alice, record.id)).toMatchObject({
      cancelRequested: true,
    });
    expect(await registry.tasks.cancelRequests('proc_a')).toContain(record.id);
    expect(await registry.tasks.cancelRequests('proc_b')).not.toContain(record.id);
    await registry.tasks.finish(alice, record.id, 'proc_a', result('cancelled', null));
    expect(await registry.tasks.cancelRequests('proc_a')).not.toContain(record.id);
    expect(await registry.tasks.get(alice, record.id)).toMatchObject({
      status: 'cancelled',
      cancelRequested: false,
    });
  });

  it('a task whose owner stopped renewing its lease is failed with the reason, once, and the owner cannot overwrite it', async () => {
    const erin = createContext({ userId: 'erin', clock });
    const lost = await admitted(registry, erin, { ...task('Lost.'), owner: 'proc_dead' });
    const kept = await admitted(registry, erin, { ...task('Kept.'), owner: 'proc_alive' });
    clock.advance(LEASE - 1_000);
    expect(await registry.tasks.renewLeases('proc_alive', LEASE, clock.now())).toBeGreaterThan(0);
    clock.advance(2_000);
    const failed = await registry.tasks.failLost(clock.now());
    expect(failed).toContainEqual({ id: lost.id, userId: 'erin', owner: 'proc_dead' });
    expect(failed.map((t) => t.id)).not.toContain(kept.id);
    expect(await registry.tasks.failLost(clock.now())).not.toContainEqual(
      expect.objectContaining({ id: lost.id }),
    );
    const stored = await registry.tasks.get(erin, lost.id);
    expect(stored).toMatchObject({
      status: 'failed',
      finishedAt: expect.any(String),
      result: {
        status: 'failed',
        error: {
          code: 'INTERNAL',
          message: expect.stringMatching(/process running this task stopped/),
          details: { reason: 'process_lost', owner: 'proc_dead' },
        },
      },
    });
    // The owner comes back (it was only stalled): what was recorded stays.
    expect(await registry.tasks.finish(erin, lost.id, 'proc_dead', result('completed', 'x'))).toBe(
      false,
    );
    expect((await registry.tasks.get(erin, lost.id))?.status).toBe('failed');
    // A lost task does not hold a slot of the cap.
    expect(
      await registry.tasks.admit(erin, { ...task('Again.', 2), owner: 'proc_alive' }),
    ).toMatchObject({ admitted: true });
    await registry.tasks.finish(erin, kept.id, 'proc_alive', result('completed', 'ok'));
  });

  it('retention: finished tasks past the age are pruned with their events; past the count per user, the oldest go', async () => {
    const frank = createContext({ userId: 'frank', clock });
    const old = await admitted(registry, frank);
    await registry.tasks.appendEvents(frank, old.id, [{ seq: 0, event: step(1) }]);
    await registry.tasks.finish(frank, old.id, 'proc_a', result('completed', 'old'));
    const running = await admitted(registry, frank);
    clock.advance(60_000);
    expect(await registry.tasks.renewLeases('proc_a', LEASE, clock.now())).toBeGreaterThan(0);
    expect(await registry.tasks.pruneFinished(clock.now() - 30_000)).toBeGreaterThanOrEqual(1);
    expect(await registry.tasks.get(frank, old.id)).toBeUndefined();
    expect(await registry.tasks.events(frank, old.id)).toEqual([]);
    expect((await registry.tasks.get(frank, running.id))?.status).toBe('running');

    const grace = createContext({ userId: 'grace', clock });
    const ids: string[] = [];
    for (const answer of ['1', '2', '3']) {
      const record = await admitted(registry, grace, { ...task(answer), keepFinished: 2 });
      await registry.tasks.finish(grace, record.id, 'proc_a', result('completed', answer));
      ids.push(record.id);
      clock.advance(10);
    }
    await admitted(registry, grace, { ...task('4'), keepFinished: 2 });
    const left = (await registry.tasks.list(grace)).map((t) => t.id);
    expect(left).not.toContain(ids[0]);
    expect(left).toEqual(expect.arrayContaining([ids[1], ids[2]]));
    expect(left).toHaveLength(3);
  });

  it('several registries on one database admitting at once never pass the cap', async () => {
    const { registries, close } = await dialect.openMany(3);
    try {
      const heidi = createContext({ userId: 'heidi', clock });
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (registries[i % 3] as Registry).tasks.admit(heidi, {
            ...task(`Race ${i}`, 3),
            owner: `proc_${i % 3}`,
          }),
        ),
      );
      expect(outcomes.filter((o) => o.admitted)).toHaveLength(3);
      expect(outcomes.filter((o) => !o.admitted)).toHaveLength(9);
      const running = await (registries[1] as Registry).tasks.list(heidi);
      expect(running.filter((t) => t.status === 'running')).toHaveLength(3);
    } finally {
      await close();
    }
  }, 60_000);
});
