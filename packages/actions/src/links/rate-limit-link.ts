import { RateLimitedError, type AgentContext } from '@mcp-agent/core';
import type { DispatchLink } from '../tool-call.js';

/** A token bucket: `ratePerSecond` refill, `burst` capacity. */
export interface RateLimit {
  readonly ratePerSecond: number;
  readonly burst: number;
}

/** Limits per provider, and a default for the others (none when absent). */
export interface RateLimits {
  readonly providers?: Readonly<Record<string, RateLimit>>;
  readonly default?: RateLimit;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** Per (tenant, provider) token buckets; a call over the limit fails with `retryAfterMs`. */
export function rateLimitLink(limits: RateLimits): DispatchLink {
  const buckets = new Map<string, Bucket>();
  return async (ctx: AgentContext, call, next) => {
    const limit = limits.providers?.[call.providerId] ?? limits.default;
    if (limit === undefined) return next(call);
    const key = `${ctx.userId}\u0000${call.providerId}`;
    const now = ctx.clock.now();
    const bucket = buckets.get(key) ?? { tokens: limit.burst, updatedAt: now };
    bucket.tokens = Math.min(
      limit.burst,
      bucket.tokens + ((now - bucket.updatedAt) / 1_000) * limit.ratePerSecond,
    );
    bucket.updatedAt = now;
    buckets.set(key, bucket);
    if (bucket.tokens < 1) {
      const retryAfterMs = Math.ceil(((1 - bucket.tokens) / limit.ratePerSecond) * 1_000);
      throw new RateLimitedError(
        `Too many calls to ${call.providerId}; try again in ${retryAfterMs} ms.`,
        {
          details: { providerId: call.providerId, retryAfterMs },
        },
      );
    }
    bucket.tokens -= 1;
    return next(call);
  };
}
