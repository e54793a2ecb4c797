import { isHandshakeTimeout } from './attempt-failure.js';
import type { RecordedState } from './pool-store.js';

// How long a recorded handshake timeout counts as "just timed out".
const HUNG_LATELY_MS = 10 * 60_000;

/**
 * One connection's memory of a server that hangs at the MCP handshake, and what it changes: a
 * server that timed out at its last start (in this process, or in another as the store
 * recorded it, within ten minutes) is tried once per discovery instead of `attempts` times,
 * until a discovery succeeds, and the failure says so. A hung server would otherwise hold every
 * waiter for `attempts` handshake timeouts.
 */
export class HungLately {
  #atHandshake = false;
  #lately: boolean;

  /** From the connection's last recorded state (absent: none), as of `now` (epoch ms). */
  constructor(last: RecordedState | undefined, now: number) {
    this.#lately =
      last !== undefined &&
      last.status !== 'ready' &&
      isHandshakeTimeout(last.lastError) &&
      now - last.recordedAt < HUNG_LATELY_MS;
  }

  /** True when the last failed attempt got no answer to the MCP handshake in time. */
  get atHandshake(): boolean {
    return this.#atHandshake;
  }

  /** How many attempts a discovery makes, of the `configured` ones. */
  attempts(configured: number): number {
    return this.#lately ? 1 : configured;
  }

  /** An attempt ended: connected, or failed (`hungAtHandshake`: without a handshake answer). */
  attemptEnded(hungAtHandshake: boolean): void {
    this.#atHandshake = hungAtHandshake;
  }

  /** A discovery succeeded: the next one makes every attempt again. */
  discovered(): void {
    this.#lately = false;
  }

  /**
   * A discovery of `attempts` (of `configured`) failed with `lastError`: the reason to give,
   * saying up front when the server was tried once (so nobody wonders about the other attempts),
   * and a hang at this start is remembered for the next discovery.
   */
  failed(lastError: string, attempts: number, configured: number): string {
    const once = this.#lately && attempts < configured;
    this.#lately ||= this.#atHandshake;
    return once
      ? `${lastError} (tried once, not ${configured} times: it did not answer the MCP handshake at its last start either)`
      : lastError;
  }
}
