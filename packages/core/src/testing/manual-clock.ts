import type { Clock } from '../clock.js';

/** A clock that moves only when told to. */
export interface ManualClock extends Clock {
  advance(ms: number): void;
  set(epochMs: number): void;
}

/** Creates a {@link ManualClock} starting at `startMs`. */
export function createManualClock(startMs = 1_700_000_000_000): ManualClock {
  let now = startMs;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    set: (epochMs) => {
      now = epochMs;
    },
  };
}
