/**
 * Where a reader of the change log stands. Sequence numbers are handed out when a change is
 * written but become visible when it commits, so a reader may see 7 before 6: the cursor
 * delivers each number once, keeps its floor below the oldest one not yet seen, and gives up
 * on a missing number after `gapMs` (its insert was rolled back and it will never appear).
 */
export class SequenceCursor {
  #floor: number;
  readonly #seen = new Set<number>();
  readonly #gaps = new Map<number, number>();
  readonly #gapMs: number;

  constructor(floor: number, options: { gapMs?: number } = {}) {
    this.#floor = floor;
    this.#gapMs = options.gapMs ?? 5_000;
  }

  /** Every number up to here was delivered or given up on: read the log after it. */
  get floor(): number {
    return this.#floor;
  }

  /** Numbers being waited for. */
  get gaps(): number {
    return this.#gaps.size;
  }

  /**
   * Of the numbers just read after the floor, the ones not delivered before, in order; then
   * moves the floor on as far as it can. Call it with no numbers to let old gaps expire.
   */
  accept(seqs: readonly number[], now: number): number[] {
    const fresh = [...new Set(seqs)]
      .filter((seq) => seq > this.#floor && !this.#seen.has(seq))
      .sort((a, b) => a - b);
    let highest = this.#floor;
    let lowest = Infinity;
    for (const seq of fresh) this.#seen.add(seq);
    for (const seq of this.#seen) {
      highest = Math.max(highest, seq);
      lowest = Math.min(lowest, seq);
    }
    // A hole wider than this is not a transaction in flight but pruned history: skip it.
    if (highest - this.#floor > 10_000) {
      this.#gaps.clear();
      this.#floor = lowest - 1;
    }
    for (let seq = this.#floor + 1; seq < highest; seq += 1)
      if (!this.#seen.has(seq) && !this.#gaps.has(seq)) this.#gaps.set(seq, now);
    for (;;) {
      const next = this.#floor + 1;
      const since = this.#gaps.get(next);
      const expired = since !== undefined && now - since >= this.#gapMs;
      if (!this.#seen.delete(next) && !expired) break;
      this.#gaps.delete(next);
      this.#floor = next;
    }
    return fresh;
  }
}
