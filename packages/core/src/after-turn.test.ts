import { describe, expect, it } from 'vitest';
import { afterTurn } from './after-turn.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('afterTurn', () => {
  it('runs the work of a turn once the turn is over: after its promise reactions, in order', async () => {
    const seen: string[] = [];
    afterTurn(() => seen.push('first'));
    afterTurn(() => seen.push('second'));
    await Promise.resolve();
    seen.push('reaction');
    expect(seen).toEqual(['reaction']);
    await nextTurn();
    expect(seen).toEqual(['reaction', 'first', 'second']);
  });

  it('a throw is dropped and the rest still runs; a later turn gets its own drain', async () => {
    const seen: string[] = [];
    afterTurn(() => {
      throw new Error('bookkeeping failed');
    });
    afterTurn(() => seen.push('after the throw'));
    await nextTurn();
    afterTurn(() => seen.push('next turn'));
    await nextTurn();
    expect(seen).toEqual(['after the throw', 'next turn']);
  });

  it('work queued while the queue drains runs in the next turn, not in this one', async () => {
    const seen: string[] = [];
    afterTurn(() => {
      seen.push('outer');
      afterTurn(() => seen.push('inner'));
    });
    await nextTurn();
    expect(seen).toEqual(['outer']);
    await nextTurn();
    expect(seen).toEqual(['outer', 'inner']);
  });
});
