import type { AgentContext } from '@mcp-agent/core';
import {
  gcra,
  refused,
  type RateLimit,
  type RateLimitCounter,
  type RateLimitVerdict,
} from './rate-limit.js';

/**
 * Rate limits counted in this process (GCRA, the same algorithm the database counter runs):
 * right for one process; several processes each allow the whole limit. Holds at most
 * `maxKeys` buckets; full ones (which equal no bucket at all) are dropped first.
 */
export class MemoryRateLimitCounter implements RateLimitCounter {
  readonly #tat = new Map<string, number>();
  readonly #maxKeys: number;

  constructor(options: { maxKeys?: number } = {}) {
    this.#maxKeys = options.maxKeys ?? 100_000;
  }

  /** Buckets held now. */
  get size(): number {
    return this.#tat.size;
  }

  async take(ctx: AgentContext, key: string, limit: RateLimit): Promise<RateLimitVerdict> {
    const { intervalUs, toleranceUs } = gcra(limit);
    const nowUs = Math.round(ctx.clock.now() * 1_000);
    const id = `${ctx.userId}\u0000${key}`;
    const tat = Math.max(this.#tat.get(id) ?? nowUs, nowUs);
    if (tat - nowUs > toleranceUs) return refused(tat, nowUs, toleranceUs);
    this.#tat.delete(id);
    this.#tat.set(id, tat + intervalUs);
    if (this.#tat.size > this.#maxKeys) this.#sweep(nowUs);
    return { allowed: true };
  }

  // Full buckets first; then the least recently used, which loses at most one burst of history.
  #sweep(nowUs: number): void {
    for (const [id, tat] of this.#tat) if (tat <= nowUs) this.#tat.delete(id);
    for (const id of this.#tat.keys()) {
      if (this.#tat.size <= this.#maxKeys) break;
      this.#tat.delete(id);
    }
  }
}
