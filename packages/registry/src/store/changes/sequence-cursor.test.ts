import { describe, expect, it } from 'vitest';
import { SequenceCursor } from './sequence-cursor.js';

describe('SequenceCursor', () => {
  it('delivers each number once and in order, moving its floor over what it delivered', () => {
    const cursor = new SequenceCursor(10);
    expect(cursor.accept([11, 12], 0)).toEqual([11, 12]);
    expect(cursor.floor).toBe(12);
    expect(cursor.accept([12, 13], 0)).toEqual([13]);
    expect(cursor.floor).toBe(13);
  });

  it('waits below a number committed late, delivers it when it appears, never twice the others', () => {
    const cursor = new SequenceCursor(0);
    // 2 committed before 1: the floor stays at 0 so the next read still asks for 1.
    expect(cursor.accept([2, 3], 0)).toEqual([2, 3]);
    expect(cursor.floor).toBe(0);
    expect(cursor.gaps).toBe(1);
    expect(cursor.accept([1, 2, 3], 100)).toEqual([1]);
    expect(cursor.floor).toBe(3);
    expect(cursor.gaps).toBe(0);
  });

  it('gives up on a number that never appears (a rolled-back insert) after the gap time', () => {
    const cursor = new SequenceCursor(0, { gapMs: 1_000 });
    expect(cursor.accept([2], 0)).toEqual([2]);
    expect(cursor.accept([2], 999)).toEqual([]);
    expect(cursor.floor).toBe(0);
    expect(cursor.accept([], 1_000)).toEqual([]);
    expect(cursor.floor).toBe(2);
    expect(cursor.gaps).toBe(0);
  });

  it('skips a hole too wide to be a transaction in flight (history pruned while away)', () => {
    const cursor = new SequenceCursor(5);
    expect(cursor.accept([50_000, 50_001], 0)).toEqual([50_000, 50_001]);
    expect(cursor.floor).toBe(50_001);
    expect(cursor.gaps).toBe(0);
  });
});
