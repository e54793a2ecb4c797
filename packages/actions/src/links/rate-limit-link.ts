import { RateLimitedError, renamedOption, type AgentContext } from '@mcp-agent/core';
import { MemoryRateLimitCounter, type RateLimit, type RateLimitCounter } from '@mcp-agent/registry';
import type { DispatchLink } from '../tool-call.js';

export type { RateLimit };

/** Limits per server, and a default for the others (none when absent). */
export interface RateLimits {
  /** The limit of each named server. */
  readonly servers?: Readonly<Record<string, RateLimit>>;
  /** The limit of every other server. */
  readonly default?: RateLimit;
}

/**
 * Per (tenant, server) token buckets; a call over the limit fails with `retryAfterMs`. The
 * `counter` counts in this process by default; `registry.rateLimitCounter` counts in the database, so
 * that several processes on one database allow the limit once between them.
 */
export function rateLimitLink(
  limits: RateLimits,
  counter: RateLimitCounter = new MemoryRateLimitCounter(),
): DispatchLink {
  // `providers` was the name of `servers` before issue 31: still obeyed, with a warning.
  const servers = renamedOption(limits, 'servers', 'providers', 'rateLimits');
  return async (ctx: AgentContext, call, next) => {
    const limit = servers?.[call.serverId] ?? limits.default;
    if (limit === undefined) return next(call);
    const verdict = await counter.take(ctx, call.serverId, limit);
    if (!verdict.allowed) {
      const { retryAfterMs } = verdict;
      throw new RateLimitedError(
        `Too many calls to ${call.serverId}; try again in ${retryAfterMs} ms.`,
        { details: { serverId: call.serverId, retryAfterMs } },
      );
    }
    return next(call);
  };
}
