import { describe, expect, it } from 'vitest';
import type { SearchDocument, SearchHit } from '@mcp-agent/knowledge';
import { fuseWithEmbedding, fusionFlags } from './embedding-fusion.js';

function doc(id: string): SearchDocument {
  const [server, name] = id.split('.') as [string, string];
  return { id, server, name, description: '', parameters: [] };
}

function hit(id: string, score: number, relevance: number): SearchHit {
  const { server, name } = doc(id);
  return { id, server, name, score, relevance };
}

const lookup = (id: string) => (id.startsWith('gone.') ? undefined : doc(id));
// Six lexical hits, the words' best relevance 0.2; the embedder prefers tools the words missed.
const lexical = [
  hit('git.a', 6, 0.2),
  hit('git.b', 5, 0.18),
  hit('git.c', 4, 0.15),
  hit('git.d', 3, 0.12),
  hit('git.e', 2, 0.1),
  hit('git.f', 1, 0.05),
];
const nearest = [
  { id: 'gone.x', similarity: 0.9 },
  { id: 'git.b', similarity: 0.8 },
  { id: 'memory.remember', similarity: 0.7 },
  { id: 'memory.recall', similarity: 0.6 },
];

describe('fuseWithEmbedding', () => {
  it('gives the last place of the five to the embedder’s best tool the words did not place', () => {
    const joined = fuseWithEmbedding(lexical, nearest, { weight: 0.3, slot: 1 }, lookup);
    // git.b is already among the first four; gone.x has no document; so memory.remember.
    expect(joined.map((h) => h.id)).toEqual([
      'git.a',
      'git.b',
      'git.c',
      'git.d',
      'memory.remember',
      'git.e',
      'git.f',
    ]);
    expect(joined[4]).toMatchObject({ server: 'memory', relevance: 0 });
  });

  it('keeps a lexical hit its own relevance when the embedder places it', () => {
    const joined = fuseWithEmbedding(
      lexical,
      [{ id: 'git.f', similarity: 0.9 }],
      { weight: 0.3, slot: 2 },
      lookup,
    );
    expect(joined.slice(0, 5).map((h) => h.id)).toEqual([
      'git.a',
      'git.b',
      'git.c',
      'git.f',
      'git.d',
    ]);
    expect(joined[3]).toEqual(lexical[5]);
  });

  it('leaves the words’ ranking alone when they answer the request (at or above the gate)', () => {
    expect(
      fuseWithEmbedding(lexical, nearest, { weight: 0.3, slot: 1, gate: 0.2 }, lookup),
    ).toEqual(lexical);
    const under = fuseWithEmbedding(lexical, nearest, { weight: 0.3, slot: 1, gate: 0.21 }, lookup);
    expect(under[4]!.id).toBe('memory.remember');
  });

  it('weighs the embedder as the search’s fusion does when no slot is asked for', () => {
    const joined = fuseWithEmbedding(lexical, nearest, { weight: 0.5 }, lookup);
    // git.b: 0.5 · 5/6 + 0.5 · 0.8/0.9 beats git.a's 0.5 · 1.
    expect(joined[0]!.id).toBe('git.b');
    expect(joined.find((h) => h.id === 'memory.remember')).toMatchObject({ relevance: 0 });
    expect(joined.some((h) => h.id === 'gone.x')).toBe(false);
  });
});

describe('fusionFlags', () => {
  it('reads a slot and a gate', () => {
    expect(fusionFlags('1', '0.5')).toEqual({ slot: 1, gate: 0.5 });
    expect(fusionFlags(undefined, undefined)).toEqual({});
  });

  it('names the flag and what it takes for a value out of range', () => {
    expect(() => fusionFlags('0', undefined)).toThrow(
      /--embedding-slot takes a whole number from 1 to 5, not "0"/,
    );
    expect(() => fusionFlags('1.5', undefined)).toThrow(/--embedding-slot/);
    expect(() => fusionFlags(undefined, '2')).toThrow(
      /--embedding-gate takes a relevance above 0 and at most 1, not "2"/,
    );
  });
});
