/** Settings of {@link CircuitBreaker}; defaults follow ContextForge: 5 failures, 60 s open. */
export interface CircuitBreakerOptions {
  readonly threshold?: number;
  readonly openMs?: number;
}

/**
 * Opens after `threshold` consecutive failures and fails fast for `openMs`; then lets exactly
 * one probe through (half-open): its success closes the breaker, its failure opens it again.
 */
export class CircuitBreaker {
  readonly #threshold: number;
  readonly #openMs: number;
  #failures = 0;
  #openUntil = 0;
  #probing = false;

  constructor(
    options: CircuitBreakerOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.#threshold = options.threshold ?? 5;
    this.#openMs = options.openMs ?? 60_000;
  }

  /** `closed`, `open` (failing fast) or `half-open` (one probe may pass). */
  get state(): 'closed' | 'open' | 'half-open' {
    if (this.#failures < this.#threshold) return 'closed';
    return this.now() < this.#openUntil ? 'open' : 'half-open';
  }

  /** When an open breaker lets the next probe through, ms since the epoch. */
  get openUntil(): number {
    return this.#openUntil;
  }

  /** True when an attempt may run now; in half-open state only the first caller gets true. */
  tryAcquire(): boolean {
    const state = this.state;
    if (state === 'closed') return true;
    if (state === 'open' || this.#probing) return false;
    this.#probing = true;
    return true;
  }

  recordSuccess(): void {
    this.#failures = 0;
    this.#probing = false;
  }

  recordFailure(): void {
    this.#failures += 1;
    this.#probing = false;
    if (this.#failures >= this.#threshold) this.#openUntil = this.now() + this.#openMs;
  }
}
