import type { AgentContext } from '@mcp-agent/core';
import { leaseSize } from '../limits/lease-size.js';

/** The most calls of an hour's quota one process takes from the database at once. */
export const MAX_CALL_LEASE = 32;
/** The tenants whose leases one process keeps; past this the oldest is returned. */
const MAX_TENANTS = 10_000;

interface Lease {
  window: string;
  /** Calls taken from the database and not yet spent. */
  left: number;
  /** The database's count after this process's last take (the limit when refused). */
  seen: number;
  taking: Promise<boolean> | undefined;
}

/**
 * `maxCallsPerHour` without a database round trip per call: each process takes a block of the
 * hour's calls at once (a lease, counted as used in the database by the same conditional
 * upsert as a single call) and spends it in memory, then takes the next. The database's count
 * never passes the limit, so no call over it is ever allowed. The slack is the other way: a
 * process refused while another holds unspent calls refuses early, by at most the held blocks
 * (each at most an eighth of what was left, at most {@link MAX_CALL_LEASE}, so 1 near the
 * limit), and until they are returned (`release`, on close) the count includes them.
 */
export class CallLeases {
  readonly #leases = new Map<string, Lease>();

  constructor(
    /** Adds `amount` to the window's count if it stays within `max`: the new count, or undefined. */
    private readonly take: (
      ctx: AgentContext,
      window: string,
      amount: number,
      max: number,
    ) => Promise<number | undefined>,
    /** Takes `amount` back from the window's count. */
    private readonly giveBack: (userId: string, window: string, amount: number) => Promise<void>,
  ) {}

  /** Spends one call of the tenant's hour; false when the hour's limit is reached. */
  async spend(ctx: AgentContext, window: string, limit: number): Promise<boolean> {
    const { userId } = ctx;
    for (;;) {
      let lease = this.#leases.get(userId);
      // A lease of an hour that is over is worth nothing: that count is dropped anyway.
      if (lease === undefined || lease.window !== window) {
        lease = { window, left: 0, seen: 0, taking: undefined };
        this.#leases.delete(userId);
        this.#leases.set(userId, lease);
        this.#evict();
      }
      if (lease.left > 0) {
        lease.left -= 1;
        return true;
      }
      // One take at a time per tenant, so a process holds at most one block unspent.
      if (lease.taking === undefined) {
        const taking = this.#takeBlock(ctx, lease, limit);
        lease.taking = taking;
        void taking.finally(() => {
          if (lease.taking === taking) lease.taking = undefined;
        });
      }
      if (!(await lease.taking)) return false;
    }
  }

  /**
   * Spends one call of the tenant's `window` when this process holds one unspent, at once;
   * false when it holds none ({@link spend} then takes a block or refuses).
   */
  spendHeld(userId: string, window: string): boolean {
    const lease = this.#leases.get(userId);
    if (lease?.window !== window || lease.left <= 0) return false;
    lease.left -= 1;
    return true;
  }

  /** Calls this process holds unspent for the tenant's `window`. */
  held(userId: string, window: string): number {
    const lease = this.#leases.get(userId);
    return lease?.window === window ? lease.left : 0;
  }

  /** Returns every unspent call to the database (on close); errors are the caller's. */
  async release(): Promise<void> {
    const leases = [...this.#leases.entries()];
    this.#leases.clear();
    for (const [userId, lease] of leases)
      if (lease.left > 0) await this.giveBack(userId, lease.window, lease.left);
  }

  async #takeBlock(ctx: AgentContext, lease: Lease, limit: number): Promise<boolean> {
    // An eighth of what the hour has left, 1 to MAX_CALL_LEASE.
    const block = leaseSize(limit - lease.seen, MAX_CALL_LEASE);
    let used = block > 1 ? await this.take(ctx, lease.window, block, limit) : undefined;
    let got = used === undefined ? 0 : block;
    // Less than a block left: one call, exactly as without leases.
    if (got === 0) {
      used = await this.take(ctx, lease.window, 1, limit);
      got = used === undefined ? 0 : 1;
    }
    lease.seen = used ?? limit;
    lease.left += got;
    return got > 0;
  }

  #evict(): void {
    if (this.#leases.size <= MAX_TENANTS) return;
    const [userId, lease] = this.#leases.entries().next().value as [string, Lease];
    this.#leases.delete(userId);
    if (lease.left > 0) void this.giveBack(userId, lease.window, lease.left).catch(() => undefined);
  }
}
