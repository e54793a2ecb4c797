import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { createManualClock } from '@mcp-agent/core/testing';
import { MemoryRateLimitCounter, type RateLimitCounter, type Registry } from '../../index.js';
import { leaseSize } from '../limits/lease-size.js';
import { MAX_RATE_LEASE } from '../limits/rate-limit-repository.js';
import type { SharedDatabase } from '../../testing/index.js';
import { dialects, reportSkippedPostgres } from './dialects.js';
import { repositoriesOf } from '../tenant-store.js';

const clock = createManualClock(Date.parse('2030-01-01T00:00:00Z'));
const alice = createContext({ userId: 'alice', clock });
const bob = createContext({ userId: 'bob', clock });
const limit = { ratePerSecond: 2, burst: 3 };

// The same contract for the counter in memory and the one in each database.
const counters: {
  name: string;
  open(): Promise<{ counter: RateLimitCounter; close(): Promise<void> }>;
}[] = [
  {
    name: 'memory',
    open: async () => ({ counter: new MemoryRateLimitCounter(), close: async () => {} }),
  },
  ...dialects.map((dialect) => ({
    name: dialect.name,
    open: async () => {
      const registry = await dialect.open();
      return { counter: repositoriesOf(registry).rateLimits, close: () => registry.close() };
    },
  })),
];

reportSkippedPostgres();

describe.each(counters)('rate limits counted in $name', ({ open }) => {
  let counter: RateLimitCounter;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ counter, close } = await open());
  }, 60_000);
  afterAll(async () => {
    await close?.();
  });

  it('a burst passes, the next call is refused with when to retry, and the bucket refills at the rate', async () => {
    const key = `github-${clock.now()}`;
    for (let i = 0; i < 3; i += 1)
      expect(await counter.take(alice, key, limit)).toEqual({ allowed: true });
    expect(await counter.take(alice, key, limit)).toEqual({ allowed: false, retryAfterMs: 500 });
    clock.advance(499);
    expect((await counter.take(alice, key, limit)).allowed).toBe(false);
    clock.advance(1);
    expect(await counter.take(alice, key, limit)).toEqual({ allowed: true });
    expect(await counter.take(alice, key, limit)).toEqual({ allowed: false, retryAfterMs: 500 });
    // Each tenant and each key has its own bucket.
    expect(await counter.take(bob, key, limit)).toEqual({ allowed: true });
    expect(await counter.take(alice, `${key}-other`, limit)).toEqual({ allowed: true });
    // Idle long enough, the bucket is full again, and no fuller than the burst.
    clock.advance(60_000);
    for (let i = 0; i < 3; i += 1)
      expect((await counter.take(alice, key, limit)).allowed).toBe(true);
    expect((await counter.take(alice, key, limit)).allowed).toBe(false);
  });
});

describe.each(dialects)('rate limits across registries on $name', (dialect) => {
  let many: SharedDatabase;
  beforeAll(async () => {
    many = await dialect.openMany(3);
  }, 60_000);
  afterAll(async () => {
    await many?.close();
  });

  it('calls racing from several registries on one database pass the limit once, not once each', async () => {
    const key = 'racing';
    const slow = { ratePerSecond: 0.001, burst: 5 };
    const verdicts = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        repositoriesOf(many.registries[i % 3] as Registry).rateLimits.take(alice, key, slow),
      ),
    );
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(5);
    expect(verdicts.filter((v) => !v.allowed)).toHaveLength(25);
  });

  it('two registries racing a bucket, each taking leased blocks: never past the limit, short of it by at most the blocks they hold', async () => {
    const [a, b] = many.registries as [Registry, Registry];
    // A burst of 40 and no refill while the clock stands: leases of leaseSize(40, 16) = 5.
    const slow = { ratePerSecond: 0.001, burst: 40 };
    expect(leaseSize(slow.burst, MAX_RATE_LEASE)).toBe(5);
    const verdicts = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        repositoriesOf(i % 2 === 0 ? a : b).rateLimits.take(bob, 'leased', slow),
      ),
    );
    const passed = verdicts.filter((v) => v.allowed).length;
    expect(passed).toBeLessThanOrEqual(40);
    // Each process holds at most one block unspent when it is refused.
    expect(passed).toBeGreaterThanOrEqual(40 - 2 * (leaseSize(slow.burst, MAX_RATE_LEASE) - 1));
    expect(verdicts.filter((v) => !v.allowed).every((v) => !v.allowed && v.retryAfterMs > 0)).toBe(
      true,
    );
    // Held calls expire one interval after they were taken; the bucket then refills as before.
    clock.advance(1_000_000);
    expect((await repositoriesOf(a).rateLimits.take(bob, 'leased', slow)).allowed).toBe(true);
  });

  it('full buckets are pruned, and a pruned bucket is the same as a full one', async () => {
    const [first] = many.registries as [Registry];
    await repositoriesOf(first).rateLimits.take(alice, 'pruned', limit);
    expect(
      await repositoriesOf(first).rateLimits.prune(clock.now() + 10_000),
    ).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < 3; i += 1)
      expect((await repositoriesOf(first).rateLimits.take(alice, 'pruned', limit)).allowed).toBe(
        true,
      );
    expect((await repositoriesOf(first).rateLimits.take(alice, 'pruned', limit)).allowed).toBe(
      false,
    );
  });
});
