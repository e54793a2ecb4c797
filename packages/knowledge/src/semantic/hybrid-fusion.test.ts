import { describe, expect, it } from 'vitest';
import type { SearchDocument, SearchHit } from '../search/search-document.js';
import { fuseHybrid } from './hybrid-fusion.js';

const hit = (id: string, score: number, relevance = 1): SearchHit => ({
  id,
  server: id.split('.')[0]!,
  name: id.split('.')[1]!,
  score,
  relevance,
});
const docs = new Map<string, SearchDocument>(
  ['a.one', 'a.two', 'b.three', 'b.four'].map((id) => [
    id,
    { id, server: id.split('.')[0]!, name: id.split('.')[1]!, description: '', parameters: [] },
  ]),
);

describe('fuseHybrid', () => {
  it('adds each ranking divided by its best, weighted (1 − w) and w', () => {
    const fused = fuseHybrid(
      [hit('a.one', 10), hit('a.two', 5)],
      [
        { id: 'a.two', server: 'a', similarity: 0.8 },
        { id: 'b.three', server: 'b', similarity: 0.4 },
        { id: 'b.four', server: 'b', similarity: -0.2 },
      ],
      0.25,
      (id) => docs.get(id),
    );
    // a.one: 0.75·10/10 = 0.75; a.two: 0.75·5/10 + 0.25·0.8/0.8 = 0.625;
    // b.three: 0.25·0.4/0.8 = 0.125; b.four: a negative similarity counts as 0.
    expect(fused.map((h) => [h.id, h.score, h.relevance])).toEqual([
      ['a.one', 0.75, 1],
      ['a.two', 0.625, 1],
      ['b.three', 0.125, 0],
      ['b.four', 0, 0],
    ]);
  });

  it('weight 0 is the lexical order, weight 1 the semantic order; ties go to the lower id', () => {
    const lexical = [hit('a.one', 4), hit('a.two', 2)];
    const semantic = [
      { id: 'b.three', server: 'b', similarity: 0.9 },
      { id: 'a.two', server: 'a', similarity: 0.9 },
    ];
    const lookup = (id: string) => docs.get(id);
    expect(
      fuseHybrid(lexical, semantic, 0, lookup)
        .map((h) => h.id)
        .slice(0, 2),
    ).toEqual(['a.one', 'a.two']);
    expect(
      fuseHybrid(lexical, semantic, 1, lookup)
        .map((h) => h.id)
        .slice(0, 2),
    ).toEqual(['a.two', 'b.three']);
    // Out-of-range weights are clamped; tools no index knows are dropped.
    expect(fuseHybrid([], [{ id: 'x.gone', server: 'x', similarity: 1 }], 7, lookup)).toEqual([]);
  });
});
