import type { McpExchange, McpTrafficObserver } from '@mcp-agent/core';

/**
 * One MCP request the gateway answered (`in`) or sent to a server (`out`), as the web UI shows
 * it: the process's {@link McpExchange}s, redacted by construction (names, sizes, outcomes and
 * codes; never arguments or results).
 */
export type McpTraceEntry = McpExchange;

/** Bounds of the log: entries kept in all, and per user. */
export interface McpTraceLogLimits {
  /** Entries kept in all, the oldest dropped first; default 5,000. */
  readonly maxEntries: number;
  /** Entries kept per user, so one user cannot push out the others'; default 500. */
  readonly maxPerUser: number;
}

/**
 * The process's MCP traffic for the web UI: the requests the gateway answered and those sent to
 * servers, each with the request it belongs to (an `execute_task`'s calls belong to its task's
 * own request). Fed directly (`observeMcpTraffic`), not from spans: a server that exports no
 * traces makes none for it. Bounded: the newest `maxEntries` in all and `maxPerUser` per user.
 */
export class McpTraceLog implements McpTrafficObserver {
  readonly #limits: McpTraceLogLimits;
  /** Every entry by its sequence number; insertion order is age, the first is the oldest. */
  readonly #entries = new Map<number, McpTraceEntry>();
  /** Each user's sequence numbers, oldest first from `head`: eviction is O(1), not a scan. */
  readonly #perUser = new Map<string, { seqs: number[]; head: number }>();
  #seq = 0;

  constructor(limits: Partial<McpTraceLogLimits> = {}) {
    this.#limits = { maxEntries: 5_000, maxPerUser: 500, ...limits };
  }

  /** Keeps one exchange, dropping the oldest past the bounds. */
  exchanged(exchange: McpExchange): void {
    // Hundredths of a millisecond: more is noise, and it is shown as such.
    this.#add({ ...exchange, durationMs: Math.round(exchange.durationMs * 100) / 100 });
  }

  /** How many entries are held. */
  get size(): number {
    return this.#entries.size;
  }

  /** The newest entries first: of `userId`, or of everyone for the operator (`undefined`). */
  list(userId: string | undefined, limit = 200): McpTraceEntry[] {
    const found: McpTraceEntry[] = [];
    if (userId === undefined) {
      const all = [...this.#entries.values()];
      for (let i = all.length - 1; i >= 0 && found.length < limit; i--)
        found.push(all[i] as McpTraceEntry);
      return found;
    }
    const queue = this.#perUser.get(userId);
    if (queue === undefined) return found;
    for (let i = queue.seqs.length - 1; i >= queue.head && found.length < limit; i--)
      found.push(this.#entries.get(queue.seqs[i] as number) as McpTraceEntry);
    return found;
  }

  #add(entry: McpTraceEntry): void {
    const held = this.#perUser.get(entry.userId);
    if (held !== undefined && held.seqs.length - held.head >= this.#limits.maxPerUser)
      this.#dropOldest(entry.userId);
    let queue = this.#perUser.get(entry.userId);
    if (queue === undefined) {
      queue = { seqs: [], head: 0 };
      this.#perUser.set(entry.userId, queue);
    }
    this.#seq += 1;
    this.#entries.set(this.#seq, entry);
    queue.seqs.push(this.#seq);
    while (this.#entries.size > this.#limits.maxEntries) {
      // The oldest entry of all is the oldest of its user.
      const oldest = this.#entries.values().next().value as McpTraceEntry;
      this.#dropOldest(oldest.userId);
    }
  }

  #dropOldest(userId: string): void {
    const queue = this.#perUser.get(userId);
    if (queue === undefined || queue.head === queue.seqs.length) return;
    this.#entries.delete(queue.seqs[queue.head] as number);
    queue.head += 1;
    if (queue.head === queue.seqs.length) this.#perUser.delete(userId);
    else if (queue.head > 64 && queue.head * 2 > queue.seqs.length) {
      queue.seqs = queue.seqs.slice(queue.head);
      queue.head = 0;
    }
  }
}
