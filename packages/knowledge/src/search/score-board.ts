/**
 * Scores per document slot for one query: a dense array plus the list of slots touched, so
 * adding is a typed-array write. A slot's score counts only when stamped with the current
 * generation, so clearing is a counter bump, not a walk over what the last query touched.
 */
export class ScoreBoard {
  #scores = new Float64Array(256);
  #stamps = new Uint32Array(256);
  #generation = 1;
  readonly #touched: number[] = [];

  /** Slots with a score, in the order first scored. */
  get touched(): readonly number[] {
    return this.#touched;
  }

  add(slot: number, value: number): void {
    if (slot >= this.#scores.length) this.#grow(slot);
    if (this.#stamps[slot] !== this.#generation) {
      this.#stamps[slot] = this.#generation;
      this.#scores[slot] = value;
      this.#touched.push(slot);
    } else {
      this.#scores[slot]! += value;
    }
  }

  get(slot: number): number {
    return this.#stamps[slot] === this.#generation ? this.#scores[slot]! : 0;
  }

  /** The best score, 0 when nothing was scored. */
  best(): number {
    let best = 0;
    for (const slot of this.#touched) best = Math.max(best, this.#scores[slot]!);
    return best;
  }

  /**
   * The `n` best slots, best first; ties broken by `tieBreak` so results are deterministic.
   * Selection keeps a sorted window of `n`, so most slots cost one comparison.
   */
  top(
    n: number,
    tieBreak: (a: number, b: number) => number,
    keep?: (slot: number) => boolean,
  ): number[] {
    const scores = this.#scores;
    const before = (a: number, b: number) =>
      scores[a]! > scores[b]! || (scores[a] === scores[b] && tieBreak(a, b) < 0);
    const window: number[] = [];
    for (const slot of this.#touched) {
      const score = scores[slot]!;
      // Most slots fall below a full window's last score: one comparison, no call.
      if (score <= 0 || (window.length === n && score < scores[window[n - 1]!]!)) continue;
      if (keep !== undefined && !keep(slot)) continue;
      if (window.length === n && !before(slot, window[n - 1]!)) continue;
      let at = window.length === n ? n - 1 : window.length;
      while (at > 0 && before(slot, window[at - 1]!)) {
        window[at] = window[at - 1]!;
        at--;
      }
      window[at] = slot;
    }
    return window;
  }

  clear(): void {
    this.#touched.length = 0;
    if (this.#generation === 0xffff_ffff) {
      this.#stamps.fill(0);
      this.#generation = 0;
    }
    this.#generation++;
  }

  #grow(slot: number): void {
    const size = Math.max(this.#scores.length * 2, slot + 1);
    const scores = new Float64Array(size);
    scores.set(this.#scores);
    const stamps = new Uint32Array(size);
    stamps.set(this.#stamps);
    this.#scores = scores;
    this.#stamps = stamps;
  }
}
