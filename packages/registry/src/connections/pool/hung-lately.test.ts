import { describe, expect, it } from 'vitest';
import { HungLately } from './hung-lately.js';

const MINUTE = 60_000;
const timedOut = (recordedAt: number) => ({
  status: 'failed' as const,
  lastError: 'no MCP handshake within 30 s',
  recordedAt,
});

describe('HungLately', () => {
  it('tries a server that timed out at its handshake within ten minutes once, and says so', () => {
    const hung = new HungLately(timedOut(0), 9 * MINUTE);
    expect(hung.attempts(3)).toBe(1);
    hung.attemptEnded(true);
    expect(hung.atHandshake).toBe(true);
    expect(hung.failed('no MCP handshake within 30 s', 1, 3)).toBe(
      'no MCP handshake within 30 s (tried once, not 3 times: it did not answer the MCP handshake at its last start either)',
    );
    // Still hung: the next discovery tries once too, until one succeeds.
    expect(hung.attempts(3)).toBe(1);
    hung.attemptEnded(false);
    hung.discovered();
    expect(hung.attempts(3)).toBe(3);
  });

  it('makes every attempt after an old timeout, another failure, a ready state or none', () => {
    expect(new HungLately(timedOut(0), 11 * MINUTE).attempts(3)).toBe(3);
    expect(
      new HungLately(
        { status: 'failed', lastError: 'exited with code 1', recordedAt: 0 },
        1,
      ).attempts(3),
    ).toBe(3);
    expect(new HungLately({ ...timedOut(0), status: 'ready' }, 1).attempts(3)).toBe(3);
    expect(new HungLately(undefined, 0).attempts(3)).toBe(3);
  });

  it('remembers a hang at this start for the next discovery, and reports a first failure as it is', () => {
    const hung = new HungLately(undefined, 0);
    hung.attemptEnded(true);
    expect(hung.failed('no MCP handshake within 30 s', 3, 3)).toBe('no MCP handshake within 30 s');
    expect(hung.attempts(3)).toBe(1);
  });
});
