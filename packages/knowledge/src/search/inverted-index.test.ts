import { describe, expect, it } from 'vitest';
import { InvertedIndex } from './inverted-index.js';
import { ScoreBoard } from './score-board.js';

const BM25 = { k: 1.2, b: 0.75 };

function scores(index: InvertedIndex, terms: readonly string[]): Map<number, number> {
  const board = new ScoreBoard();
  index.score(
    terms.map((term) => ({ term, weight: 1 })),
    board,
  );
  return new Map(board.touched.map((slot) => [slot, board.get(slot)]));
}

describe('InvertedIndex', () => {
  it('scores a rare term above a common one, and a weighted field above a light one', () => {
    const index = new InvertedIndex([3, 1], BM25);
    const inName = index.add([['forecast'], ['weather', 'city']]);
    const inText = index.add([['report'], ['forecast', 'weather']]);
    const neither = index.add([['send'], ['weather', 'mail']]);
    const byForecast = scores(index, ['forecast']);
    expect(byForecast.get(inName)).toBeGreaterThan(byForecast.get(inText)!);
    expect(byForecast.has(neither)).toBe(false);
    const byWeather = scores(index, ['weather']);
    expect(byWeather.get(inText)!).toBeLessThan(byForecast.get(inText)!);
  });

  it('a removed document leaves no trace: scores equal those of an index that never had it', () => {
    const fresh = new InvertedIndex([2, 1], BM25);
    fresh.add([
      ['create', 'issue'],
      ['repository', 'issue'],
    ]);
    fresh.add([['send', 'mail'], ['message']]);

    const churned = new InvertedIndex([2, 1], BM25);
    churned.add([
      ['create', 'issue'],
      ['repository', 'issue'],
    ]);
    const gone = churned.add([
      ['issue', 'list'],
      ['issue', 'tracker', 'long', 'text'],
    ]);
    churned.remove(gone);
    const reused = churned.add([['send', 'mail'], ['message']]);

    expect(reused).toBe(gone); // the slot is reused
    expect(churned.count).toBe(2);
    expect(churned.documentFrequency('tracker')).toBe(0);
    expect(churned.documentFrequency('issue')).toBe(1);
    expect([...scores(churned, ['issue', 'mail']).values()].sort()).toEqual(
      [...scores(fresh, ['issue', 'mail']).values()].sort(),
    );
  });

  it('prefix lookups return longer single words only, never phrases or the prefix itself', () => {
    const index = new InvertedIndex([1], BM25);
    index.add([['regist', 'registr', 'registri', 'regist user']]);
    expect(index.termsWithPrefix('regist').sort()).toEqual(['registr', 'registri']);
    index.remove(0);
    expect(index.termsWithPrefix('regist')).toEqual([]);
  });

  it('removing an unknown slot, scoring an empty index or unknown terms is harmless', () => {
    const index = new InvertedIndex([1], BM25);
    index.remove(7);
    expect(scores(index, ['anything']).size).toBe(0);
    index.add([['alpha']]);
    expect(scores(index, ['beta']).size).toBe(0);
    expect(index.idf('alpha')).toBeGreaterThan(0);
  });
});

describe('ScoreBoard', () => {
  it('keeps the n best, breaks ties deterministically and honours the filter', () => {
    const board = new ScoreBoard();
    for (const [slot, score] of [
      [5, 1],
      [3, 2],
      [9, 2],
      [1, 0.5],
      [7, 3],
    ] as const)
      board.add(slot, score);
    board.add(1, 4); // accumulates: slot 1 now 4.5
    const byNumber = (a: number, b: number) => a - b;
    expect(board.top(3, byNumber)).toEqual([1, 7, 3]);
    expect(board.top(10, byNumber, (slot) => slot !== 7)).toEqual([1, 3, 9, 5]);
    expect(board.best()).toBe(4.5);
    board.clear();
    expect(board.touched).toEqual([]);
    expect(board.get(1)).toBe(0);
    board.add(100_000, 1); // grows past its initial size
    expect(board.top(1, byNumber)).toEqual([100_000]);
  });
});
