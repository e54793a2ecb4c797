import { describe, expect, it } from 'vitest';
import { ExpiringCache } from './expiring-cache.js';
import { createManualClock } from './testing/manual-clock.js';

describe('ExpiringCache', () => {
  it('drops the least recently used past its bound, a hit counting as a use', () => {
    const cache = new ExpiringCache<string, number>({ maxEntries: 3, ttlMs: 1_000 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBe(1); // a is now the newest: b is the oldest
    cache.set('d', 4);
    expect([cache.get('b'), cache.get('c'), cache.get('a'), cache.get('d')]).toEqual([
      undefined,
      3,
      1,
      4,
    ]);
    expect(cache.size).toBe(3);
  });

  it('keeps the order right when the newest entry is hit again and again', () => {
    const cache = new ExpiringCache<string, number>({ maxEntries: 2, ttlMs: 1_000 });
    cache.set('a', 1);
    cache.set('b', 2);
    for (let i = 0; i < 3; i++) expect(cache.get('b')).toBe(2);
    cache.set('c', 3); // a is the oldest
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe(2);
    cache.delete('b');
    cache.set('d', 4); // c stays: b is gone, so nothing is over the bound
    expect([cache.get('c'), cache.get('d')]).toEqual([3, 4]);
    cache.clear();
    cache.set('e', 5);
    cache.set('c', 6);
    expect(cache.get('e')).toBe(5);
    cache.set('f', 7); // c is the oldest after the hit on e
    expect([cache.get('c'), cache.get('e'), cache.get('f')]).toEqual([undefined, 5, 7]);
  });

  it('never returns an entry past its time, and forgets it', () => {
    const clock = createManualClock(0);
    const cache = new ExpiringCache<string, number>({ maxEntries: 10, ttlMs: 100, clock });
    cache.set('a', 1);
    clock.advance(99);
    expect(cache.get('a')).toBe(1);
    clock.advance(1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('sweeps expired entries before dropping live ones', () => {
    const clock = createManualClock(0);
    const cache = new ExpiringCache<string, number>({ maxEntries: 2, ttlMs: 100, clock });
    cache.set('old', 1);
    clock.advance(50);
    cache.set('live', 2);
    clock.advance(60); // old expired, live has 40 ms left
    cache.set('new', 3);
    expect([cache.get('live'), cache.get('new'), cache.size]).toEqual([2, 3, 2]);
  });
});
