/** One server's tool calls of a task on a day, as they are added up before a write. */
export interface ToolCallTally {
  readonly userId: string;
  readonly taskId: string;
  readonly server: string;
  /** UTC day, in days since 1970-01-01 (formatted only when written). */
  readonly day: number;
  calls: number;
  errors: number;
  durationMs: number;
  /** The last call's time, epoch milliseconds (formatted only when written, off the call). */
  at: number;
}

/** How often the tallied calls are written, at most. */
export const USAGE_FLUSH_MS = 200;
/** How many rows may wait; past this a call waits for the write (backpressure). */
export const USAGE_MAX_PENDING = 5_000;

/**
 * Tool-call usage written behind: calls are added up per (tenant, task, server, day) in
 * memory and written at most every `flushMs` in one statement per batch, so no call waits on a
 * database write. Bounded: past `maxPending` rows the call that adds one waits for the write.
 * `flush()` writes everything now (on drain, on close, before this process reads usage back);
 * a failed write keeps its rows for the next one. A crash loses at most the last `flushMs`.
 */
export class ToolCallWriteBehind {
  #pending = new Map<string, ToolCallTally>();
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (rows: readonly ToolCallTally[]) => Promise<void>,
    private readonly options: { flushMs?: number; maxPending?: number } = {},
  ) {}

  /** Rows waiting to be written. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Adds one call; resolves at once, or after a write when `maxPending` rows are waiting. */
  add(call: Omit<ToolCallTally, 'calls'>): Promise<void> | undefined {
    const key = `${call.userId}\u0000${call.taskId}\u0000${call.server}\u0000${call.day}`;
    const tally = this.#pending.get(key);
    if (tally === undefined) this.#pending.set(key, { ...call, calls: 1 });
    else {
      tally.calls += 1;
      tally.errors += call.errors;
      tally.durationMs += call.durationMs;
      tally.at = call.at;
    }
    if (this.#pending.size >= (this.options.maxPending ?? USAGE_MAX_PENDING)) return this.flush();
    this.#timer ??= setTimeout(() => {
      this.flush().catch(() => undefined);
    }, this.options.flushMs ?? USAGE_FLUSH_MS).unref();
    return undefined;
  }

  /** Writes every waiting row (after any write under way); rejects if the write failed. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const next = this.#writing.then(async () => {
      if (this.#pending.size === 0) return;
      const rows = [...this.#pending.values()];
      this.#pending = new Map();
      try {
        await this.write(rows);
      } catch (error) {
        // Kept for the next write, added to whatever came since.
        for (const row of rows) {
          const key = `${row.userId}\u0000${row.taskId}\u0000${row.server}\u0000${row.day}`;
          const later = this.#pending.get(key);
          if (later === undefined) this.#pending.set(key, row);
          else {
            later.calls += row.calls;
            later.errors += row.errors;
            later.durationMs += row.durationMs;
          }
        }
        throw error;
      }
    });
    this.#writing = next.catch(() => undefined);
    return next;
  }
}
