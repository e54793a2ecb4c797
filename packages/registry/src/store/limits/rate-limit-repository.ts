import { sql } from 'kysely';
import type { AgentContext } from '@mcp-agent/core';
import type { Executor } from '../database/executor.js';
import { leaseSize } from './lease-size.js';
import {
  gcra,
  refused,
  type RateLimit,
  type RateLimitCounter,
  type RateLimitVerdict,
} from './rate-limit.js';

/** The most calls of a bucket one process takes from the database at once. */
export const MAX_RATE_LEASE = 16;
// Buckets whose leases one process keeps; past this the oldest lease is dropped (unspent).
const MAX_LEASES = 10_000;

interface Lease {
  left: number;
  /** Past this (µs, the tenant's clock) unspent calls are worth nothing. */
  expiresUs: number;
  intervalUs: number;
  taking: Promise<RateLimitVerdict> | undefined;
}

/**
 * Rate limits counted in the database, so that N processes together allow the limit once, not
 * N times. GCRA keeps one number per (tenant, key), its theoretical arrival time, and calls are
 * taken by one conditional upsert — atomic on both dialects, so racing processes never pass the
 * limit. A bucket whose time has passed is full, the same as no row; `prune` deletes those.
 *
 * No round trip per call: a process takes an eighth of the burst at once (`leaseSize`, 1 to
 * {@link MAX_RATE_LEASE}; one take at a time per bucket) and spends those calls in memory for at
 * most one interval (1 / rate) after taking them.
 * The slack, stated: calls are counted when taken, so over any span the deployment allows at
 * most what the bucket allows over a span one interval longer (one call more); and a process
 * holding unspent calls may leave another refused early by them, until they expire.
 */
export class RateLimitRepository implements RateLimitCounter {
  readonly #leases = new Map<string, Lease>();

  constructor(private readonly db: Executor) {}

  async take(ctx: AgentContext, key: string, limit: RateLimit): Promise<RateLimitVerdict> {
    const size = leaseSize(limit.burst, MAX_RATE_LEASE);
    if (size === 1) return this.#take(ctx, key, limit, 1);
    const id = `${ctx.userId}\u0000${key}`;
    const { intervalUs } = gcra(limit);
    for (;;) {
      const nowUs = Math.round(ctx.clock.now() * 1_000);
      let lease = this.#leases.get(id);
      if (lease === undefined || lease.intervalUs !== intervalUs || lease.expiresUs <= nowUs) {
        lease = { left: 0, expiresUs: nowUs + intervalUs, intervalUs, taking: undefined };
        this.#leases.delete(id);
        this.#leases.set(id, lease);
        if (this.#leases.size > MAX_LEASES)
          this.#leases.delete(this.#leases.keys().next().value as string);
      }
      if (lease.left > 0) {
        lease.left -= 1;
        return { allowed: true };
      }
      if (lease.taking !== undefined) {
        // Another call of this process is taking a block: wait for it, then spend from it.
        const verdict = await lease.taking;
        if (!verdict.allowed) return verdict;
        continue;
      }
      const held = lease;
      const taking = this.#takeBlock(ctx, key, limit, size, held).finally(() => {
        held.taking = undefined;
      });
      held.taking = taking;
      const verdict = await taking;
      if (!verdict.allowed) return verdict;
      if (held.left > 0) {
        held.left -= 1;
        return { allowed: true };
      }
    }
  }

  // A block of `size` calls when the bucket has them, else one, exactly as without leases.
  async #takeBlock(
    ctx: AgentContext,
    key: string,
    limit: RateLimit,
    size: number,
    lease: Lease,
  ): Promise<RateLimitVerdict> {
    const block = await this.#take(ctx, key, limit, size);
    if (block.allowed) {
      lease.left += size;
      return block;
    }
    const one = await this.#take(ctx, key, limit, 1);
    if (one.allowed) lease.left += 1;
    return one;
  }

  // Takes `n` calls at once: the n-th must fit within the burst's tolerance.
  async #take(
    ctx: AgentContext,
    key: string,
    limit: RateLimit,
    n: number,
  ): Promise<RateLimitVerdict> {
    const { intervalUs, toleranceUs } = gcra(limit);
    const nowUs = Math.round(ctx.clock.now() * 1_000);
    const taken = await this.db
      .insertInto('rate_limits')
      .values({ user_id: ctx.userId, key, tat_us: nowUs + n * intervalUs })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'key'])
          .doUpdateSet({
            tat_us: sql`(case when rate_limits.tat_us > ${nowUs} then rate_limits.tat_us else ${nowUs} end) + ${n * intervalUs}`,
          })
          .where('rate_limits.tat_us', '<=', nowUs + toleranceUs - (n - 1) * intervalUs),
      )
      .returning('tat_us')
      .executeTakeFirst();
    if (taken !== undefined) return { allowed: true };
    const row = await this.db
      .selectFrom('rate_limits')
      .select('tat_us')
      .where('user_id', '=', ctx.userId)
      .where('key', '=', key)
      .executeTakeFirst();
    return refused(Number(row?.tat_us ?? nowUs), nowUs, toleranceUs);
  }

  /** Deletes the buckets that are full again at `now` (ms), across tenants: housekeeping. */
  async prune(now: number): Promise<number> {
    const result = await this.db
      .deleteFrom('rate_limits')
      .where('tat_us', '<=', Math.round(now * 1_000))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
