import { describe, expect, it } from 'vitest';
import { backoffDelay, sleep } from './backoff.js';

describe('backoffDelay (full jitter)', () => {
  it('RDY-02 delays stay within [0, min(cap, base·2^attempt)] and grow to the cap', () => {
    const options = { baseMs: 100, capMs: 1_000 };
    for (let attempt = 0; attempt < 12; attempt++) {
      const ceiling = Math.min(1_000, 100 * 2 ** attempt);
      for (const r of [0, 0.5, 0.999999]) {
        const delay = backoffDelay(attempt, options, () => r);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThan(ceiling);
      }
      expect(backoffDelay(attempt, options, () => 0.999999)).toBe(Math.floor(0.999999 * ceiling));
    }
  });

  it('is jittered: many clients spread out', () => {
    const delays = Array.from({ length: 1_000 }, () =>
      backoffDelay(3, { baseMs: 1_000, capMs: 30_000 }),
    );
    const buckets = new Set(delays.map((d) => Math.floor(d / 1_000)));
    expect(buckets.size).toBeGreaterThanOrEqual(7);
  });

  it('sleep is cancelled by its signal', async () => {
    const controller = new AbortController();
    const pending = sleep(10_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});
