// What BM25F makes of the counts the inverted index stores (inverted-index.ts): the index keeps
// postings, field frequencies and lengths; how much a posting weighs is reckoned here.

/** BM25F parameters: term saturation `k`, length normalisation `b`. */
export interface Bm25Options {
  readonly k: number;
  readonly b: number;
}

/** Inverse document frequency of a term `df` of `count` documents hold (BM25's, never negative). */
export function inverseFrequency(count: number, df: number): number {
  return Math.log(1 + (count - df + 0.5) / (df + 0.5));
}

/**
 * Each field's average length, at least 1. A sparse field's is over the documents where it is
 * not empty only: a field most documents lack, such as a gloss, must not make the few that have
 * it look long.
 */
export function averageLengths(
  totals: readonly number[],
  present: readonly number[],
  sparse: readonly boolean[],
  count: number,
): number[] {
  return totals.map((total, f) => Math.max(total / ((sparse[f] ? present[f] : count) || 1), 1));
}

/**
 * One posting's saturated weight: its field frequencies (`width` bytes from `at * width`,
 * `width` being the number of fields) weighted and length-normalised per field, summed, then
 * saturated once, so a term repeated across fields cannot outscore a rare one.
 */
export function saturatedWeight(
  { k, b }: Bm25Options,
  fieldWeights: readonly number[],
  frequencies: Uint8Array,
  at: number,
  lengths: readonly Uint32Array[],
  slot: number,
  averages: readonly number[],
): number {
  const width = fieldWeights.length;
  let tf = 0;
  for (let f = 0; f < width; f++) {
    const frequency = frequencies[at * width + f]!;
    if (frequency === 0) continue;
    const norm = 1 - b + (b * lengths[f]![slot]!) / averages[f]!;
    tf += (fieldWeights[f]! * frequency) / norm;
  }
  return (tf * (k + 1)) / (k + tf);
}
