/** p50 and p99 of a set of timings, in milliseconds, rounded to microseconds. */
export interface LatencyStats {
  readonly p50: number;
  readonly p99: number;
  readonly n: number;
}

/** The p-th percentile (0–100) of `values`, nearest-rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ] as number;
}

/** The benchmarks' summary of timings: p50, p99 and the count. */
export function latencyStats(values: readonly number[]): LatencyStats {
  return {
    p50: round3(percentile(values, 50)),
    p99: round3(percentile(values, 99)),
    n: values.length,
  };
}

/** Rounds to three decimals, as every benchmark prints its figures. */
export function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
