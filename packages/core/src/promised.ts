/**
 * What `run` returns, or its synchronous throw as a rejection: for a function that hands a
 * promise on without an async frame of its own (on a per-call path each frame is one more
 * resumption for every answer), yet must fail as an async one would.
 *
 * @example
 * ```ts
 * const answer = promised(() => next(call)); // a link that throws at once rejects here
 * return answer.catch(logged);
 * ```
 */
export function promised<T>(run: () => Promise<T>): Promise<T> {
  try {
    return run();
  } catch (thrown) {
    return Promise.reject(thrown as Error);
  }
}
