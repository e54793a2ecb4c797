import { promised, type Clock } from '@mcp-agent/core';
import type { ConnectionMetrics } from '../../store/readiness/connection-state.js';

/**
 * How one connection is used: requests in flight (a busy connection is never evicted), calls,
 * errors and latency for status views, and when it was last active, for idle eviction.
 */
export class ConnectionUsage {
  readonly #clock: Clock;
  #inFlight = 0;
  #calls = 0;
  #errors = 0;
  #lastUsedAt: number | null = null;
  #lastActiveAt: number;
  #lastLatencyMs: number | null = null;
  #totalLatencyMs = 0;

  constructor(clock: Clock) {
    this.#clock = clock;
    // Opening the connection is its first request: one never used again still goes idle.
    this.#lastActiveAt = clock.now();
  }

  get metrics(): ConnectionMetrics {
    return {
      calls: this.#calls,
      errors: this.#errors,
      lastUsedAt: this.#lastUsedAt,
      lastActiveAt: this.#lastActiveAt,
      lastLatencyMs: this.#lastLatencyMs,
      meanLatencyMs: this.#calls === 0 ? null : this.#totalLatencyMs / this.#calls,
    };
  }

  /** How long, by the clock, since the last activity. */
  idleFor(): number {
    return this.#clock.now() - this.#lastActiveAt;
  }

  /** True while a request is running. */
  get busy(): boolean {
    return this.#inFlight > 0;
  }

  /** Marks activity now (a request starting or ending, a discovery, a refresh). */
  touch(): void {
    this.#lastActiveAt = this.#clock.now();
  }

  /**
   * Runs one request counted in flight, timed, and counted as an error when it throws, unless
   * `signal` (its caller's) was aborted: a cancel is not the server's failure. No async frame
   * of its own: the answer passes through one handler here.
   */
  measure<T>(run: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    this.#inFlight += 1;
    this.touch();
    const started = performance.now();
    const ended = () => {
      this.#inFlight -= 1;
      const latency = performance.now() - started;
      this.#calls += 1;
      this.#lastLatencyMs = latency;
      this.#totalLatencyMs += latency;
      this.#lastUsedAt = this.#clock.now();
      this.touch();
    };
    const failed = (error: unknown): never => {
      if (signal?.aborted !== true) this.#errors += 1;
      ended();
      throw error;
    };
    return promised(run).then((value) => {
      ended();
      return value;
    }, failed);
  }
}
