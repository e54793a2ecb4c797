import { describe, expect, it } from 'vitest';
import { createManualClock } from '@mcp-agent/core/testing';
import { Readiness, type ReadinessAnswer } from './readiness.js';

// A check the test answers when it likes: what a database query behind a loaded event loop is.
function controlledCheck() {
  const pending: { resolve: (a: ReadinessAnswer) => void; reject: (e: Error) => void }[] = [];
  const check = () =>
    new Promise<ReadinessAnswer>((resolve, reject) => pending.push({ resolve, reject }));
  return { check, pending };
}

// Resolves once the promise settled, or 'pending' when it has not after the microtasks run.
async function state<T>(promise: Promise<T>): Promise<T | 'pending'> {
  return Promise.race([promise, new Promise<'pending'>((r) => setTimeout(() => r('pending'), 0))]);
}

// A readiness (refresh 1 s, stale 30 s) on a manual clock whose first check answered ready.
async function answeredOnce() {
  const clock = createManualClock();
  const { check, pending } = controlledCheck();
  const readiness = new Readiness(check, { clock, refreshMs: 1_000, staleMs: 30_000 });
  const first = readiness.answer();
  pending[0]?.resolve({ ready: true });
  await first;
  return { clock, pending, readiness };
}

describe('readiness (what /ready answers)', () => {
  it('LOAD-03 a probe during a slow check answers at once from the last one; concurrent probes share one check', async () => {
    const clock = createManualClock();
    const { check, pending } = controlledCheck();
    const readiness = new Readiness(check, { clock, refreshMs: 1_000, staleMs: 30_000 });
    // The first probe has nothing to answer from: it waits for the check.
    const first = readiness.answer();
    expect(await state(first)).toBe('pending');
    pending[0]?.resolve({ ready: true });
    expect(await first).toEqual({ ready: true });
    // Within refreshMs: no new check.
    clock.advance(500);
    expect(await readiness.answer()).toEqual({ ready: true });
    expect(readiness.checks).toBe(1);
    // Past it: the probe is answered at once and starts one check, which the next probes share.
    clock.advance(1_000);
    const probes = await Promise.all([1, 2, 3].map(() => state(readiness.answer())));
    expect(probes).toEqual([{ ready: true }, { ready: true }, { ready: true }]);
    expect(readiness.checks).toBe(2);
    expect(pending).toHaveLength(2);
    // The database stopped answering: that check fails, and the next probe says so.
    pending[1]?.reject(new Error('connection refused'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await readiness.answer()).toEqual({ ready: false });
  });

  it('LOAD-03 a check that hangs for staleMs makes the answer "not ready" without waiting for it', async () => {
    const { clock, pending, readiness } = await answeredOnce();
    clock.advance(2_000);
    expect(await readiness.answer()).toEqual({ ready: true });
    expect(pending).toHaveLength(2);
    // That check never answers.
    clock.advance(29_000);
    expect(await readiness.answer()).toEqual({ ready: true });
    clock.advance(1_000);
    const answer = await state(readiness.answer());
    expect(answer).toMatchObject({ ready: false, reason: expect.stringMatching(/30 s/) });
    // It answers at last: ready again, and no check piled up behind the hung one.
    expect(readiness.checks).toBe(2);
    pending[1]?.resolve({ ready: true });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await readiness.answer()).toEqual({ ready: true });
  });

  it('waits for a fresh check when the last is older than staleMs (no probe for a long while)', async () => {
    const { clock, pending, readiness } = await answeredOnce();
    clock.advance(60_000);
    const later = readiness.answer();
    expect(await state(later)).toBe('pending');
    pending[1]?.resolve({ ready: true, tasks: { available: false, reason: 'no model' } });
    expect(await later).toEqual({ ready: true, tasks: { available: false, reason: 'no model' } });
  });
});
