// The work queued in this turn of the event loop; drained by one `setImmediate` per turn.
let queued: (() => void)[] = [];

/**
 * Runs `work` once this turn of the event loop is over: after every callback and promise
 * reaction of the turn, so after the answer the turn was building has been written. For
 * bookkeeping that must not delay an answer (metrics, the MCP traffic log): it costs the same
 * CPU, but after the write instead of before it. Nothing waits on it, so it must not fail: a
 * throw is dropped, and the rest of the queue still runs. A turn's queue is drained in the next
 * check phase, so none is held longer than that.
 *
 * @example
 * ```ts
 * afterTurn(() => instruments().serverCalls.add(1, { server, outcome }));
 * ```
 */
export function afterTurn(work: () => void): void {
  if (queued.length === 0) setImmediate(drain);
  queued.push(work);
}

function drain(): void {
  const works = queued;
  queued = [];
  for (const work of works) {
    try {
      work();
    } catch {
      // Bookkeeping only: the answer it describes is already out.
    }
  }
}
