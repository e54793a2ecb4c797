import type { AgentContext } from '@mcp-agent/core';

/** A token bucket: `ratePerSecond` refill, `burst` capacity. */
export interface RateLimit {
  /** Calls per second at the steady rate (fractions allowed: 0.5 is one call every 2 s). */
  readonly ratePerSecond: number;
  /** Calls allowed at once after a quiet spell; at least 1 (smaller values count as 1). */
  readonly burst: number;
}

/** Whether one more call fits, and if not, when the next one will. */
export type RateLimitVerdict =
  | {
      /** The call was taken. */
      readonly allowed: true;
    }
  | {
      /** Refused: nothing was taken. */
      readonly allowed: false;
      /** When one call will fit again, in milliseconds (at least 1): a `Retry-After`. */
      readonly retryAfterMs: number;
    };

/**
 * Counts calls against rate limits, per tenant and key. `MemoryRateLimitCounter` counts in one
 * process; `Registry.rateLimits` counts in the database, so the limit holds across processes.
 */
export interface RateLimitCounter {
  /** Takes one call of `key` for the context's tenant, if the limit allows it now. */
  take(ctx: AgentContext, key: string, limit: RateLimit): Promise<RateLimitVerdict>;
}

/**
 * The GCRA numbers of a bucket, in whole microseconds: the interval between calls at the steady
 * rate, and how far ahead of now the theoretical arrival time may be (the burst's allowance).
 */
export function gcra(limit: RateLimit): { intervalUs: number; toleranceUs: number } {
  const intervalUs = Math.max(1, Math.round(1_000_000 / limit.ratePerSecond));
  return { intervalUs, toleranceUs: (Math.max(1, Math.floor(limit.burst)) - 1) * intervalUs };
}

/** The verdict for a refused call whose bucket's theoretical arrival time is `tatUs`. */
export function refused(tatUs: number, nowUs: number, toleranceUs: number): RateLimitVerdict {
  return {
    allowed: false,
    retryAfterMs: Math.max(1, Math.ceil((tatUs - nowUs - toleranceUs) / 1_000)),
  };
}
