/** Capped exponential backoff settings. */
export interface BackoffOptions {
  /** First delay's ceiling, ms. */
  readonly baseMs: number;
  /** No delay exceeds this, ms. */
  readonly capMs: number;
  /** Growth per attempt; default 2. */
  readonly factor?: number;
}

/**
 * "Full jitter" (AWS Architecture Blog): a uniform delay in [0, min(cap, base × factor^attempt)],
 * so many clients that failed together do not retry together. `attempt` counts from 0; `random`
 * is there for tests.
 *
 * @example
 * ```ts
 * for (let attempt = 0; attempt < 5; attempt++) {
 *   if (await tryConnect()) break;
 *   await sleep(backoffDelay(attempt, { baseMs: 200, capMs: 10_000 }), signal);
 * }
 * ```
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(
    options.capMs,
    options.baseMs * (options.factor ?? 2) ** Math.max(0, attempt),
  );
  return Math.floor(random() * ceiling);
}

/**
 * Resolves after `ms`, or rejects with the signal's reason when it aborts first, so a wait
 * never outlives the request it belongs to.
 *
 * @throws the signal's `reason` (rejects; an `AbortError` `DOMException` unless the caller gave
 *   its own) when `signal` is aborted before or during the wait.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
