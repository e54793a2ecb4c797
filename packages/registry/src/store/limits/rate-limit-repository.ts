import { sql } from 'kysely';
import type { AgentContext } from '@mcp-agent/core';
import type { Executor } from '../database/executor.js';
import {
  gcra,
  refused,
  type RateLimit,
  type RateLimitCounter,
  type RateLimitVerdict,
} from './rate-limit.js';

/**
 * Rate limits counted in the database, so that N processes together allow the limit once, not
 * N times. GCRA keeps one number per (tenant, key), its theoretical arrival time, and a call is
 * taken by one conditional upsert — atomic on both dialects, so racing processes never pass the
 * limit. A bucket whose time has passed is full, the same as no row; `prune` deletes those.
 */
export class RateLimitRepository implements RateLimitCounter {
  constructor(private readonly db: Executor) {}

  async take(ctx: AgentContext, key: string, limit: RateLimit): Promise<RateLimitVerdict> {
    const { intervalUs, toleranceUs } = gcra(limit);
    const nowUs = Math.round(ctx.clock.now() * 1_000);
    const taken = await this.db
      .insertInto('rate_limits')
      .values({ user_id: ctx.userId, key, tat_us: nowUs + intervalUs })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'key'])
          .doUpdateSet({
            tat_us: sql`(case when rate_limits.tat_us > ${nowUs} then rate_limits.tat_us else ${nowUs} end) + ${intervalUs}`,
          })
          .where('rate_limits.tat_us', '<=', nowUs + toleranceUs),
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
