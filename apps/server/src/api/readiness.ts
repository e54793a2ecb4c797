import { systemClock, type Clock } from '@mcp-agent/core';

/** What `/ready` says: ready or not, and why not; tasks unavailable when no model is set. */
export interface ReadinessAnswer {
  readonly ready: boolean;
  readonly reason?: string;
  readonly tasks?: { readonly available: false; readonly reason: string };
}

/** Options of {@link Readiness}. */
export interface ReadinessOptions {
  /** A probe within this long of the last check gets its answer without another; 1 s. */
  readonly refreshMs?: number;
  /**
   * A check running this long (the database hangs) answers "not ready"; a last check this old
   * (no probe for a while) is not answered from but waited for. 30 s.
   */
  readonly staleMs?: number;
  /** The clock ages are measured on; a manual one in tests. */
  readonly clock?: Clock;
}

/**
 * The answer of `/ready`, kept from the last check so that a probe never waits for one: a
 * loaded process answers its probe in the time of `/health` instead of queueing a database
 * query behind its calls, which on a busy machine took longer than a balancer's probe timeout
 * (docs/closing-figures.md, load-03). A probe starts the next check in the background when the
 * last is older than `refreshMs` (one at a time, so probes never pile queries up). A probe waits
 * only when there is no recent answer (the first probe, or none for `staleMs`); a check that
 * has run for `staleMs` without answering makes the answer "not ready" at once.
 */
export class Readiness {
  readonly #check: () => Promise<ReadinessAnswer>;
  readonly #refreshMs: number;
  readonly #staleMs: number;
  readonly #clock: Clock;
  #last: { answer: ReadinessAnswer; at: number } | undefined;
  #running: { answer: Promise<ReadinessAnswer>; since: number } | undefined;
  #checks = 0;

  constructor(check: () => Promise<ReadinessAnswer>, options: ReadinessOptions = {}) {
    this.#check = check;
    this.#refreshMs = options.refreshMs ?? 1_000;
    this.#staleMs = options.staleMs ?? 30_000;
    this.#clock = options.clock ?? systemClock;
  }

  /** Checks started so far (for tests and status views). */
  get checks(): number {
    return this.#checks;
  }

  /** The answer for a probe now: the last check's, refreshed in the background when due. */
  async answer(): Promise<ReadinessAnswer> {
    const now = this.#clock.now();
    const running = this.#running;
    if (running !== undefined && now - running.since >= this.#staleMs)
      return {
        ready: false,
        reason: `the readiness check has not answered for ${Math.round((now - running.since) / 1_000)} s (the database does not answer)`,
      };
    const last = this.#last;
    // The first probe, or the first for a long while: nothing recent to answer from.
    if (last === undefined || (running === undefined && now - last.at >= this.#staleMs))
      return this.#refresh();
    if (now - last.at >= this.#refreshMs) void this.#refresh();
    return last.answer;
  }

  // One check at a time; its answer (or its failure, as not ready) becomes the last.
  #refresh(): Promise<ReadinessAnswer> {
    if (this.#running !== undefined) return this.#running.answer;
    this.#checks += 1;
    const answer = this.#check()
      .catch((): ReadinessAnswer => ({ ready: false }))
      .then((checked) => {
        this.#last = { answer: checked, at: this.#clock.now() };
        this.#running = undefined;
        return checked;
      });
    this.#running = { answer, since: this.#clock.now() };
    return answer;
  }
}
