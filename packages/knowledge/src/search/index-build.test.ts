import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { byServer, readQueries, toSearchDocument, type BenchTool } from '../testing/bench-data.js';
import { InvertedIndex } from './inverted-index.js';
import { ScoreBoard } from './score-board.js';
import type { SearchDocument } from './search-document.js';
import { splitWords, tokenize } from './tokenizer.js';
import { ToolSearchIndex } from './tool-search-index.js';

// The index build was made faster (issue 33) without changing what it finds: these tests hold
// the fast paths to the plain definitions they replace, on the bench data read in place.
const BENCH = new URL('../../../../../shared/bench/', import.meta.url);

function corpus(folder: string): SearchDocument[] {
  return readFileSync(new URL(`${folder}/corpus.jsonl`, BENCH), 'utf8')
    .trim()
    .split('\n')
    .map((line) => toSearchDocument(JSON.parse(line) as BenchTool));
}

// The splitting `splitWords` does with Unicode expressions, written out plainly.
function splitByExpressions(text: string): string[] {
  return text
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})/gu, '$1 $2')
    .replace(/(\p{N})(\p{L})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((word) => word !== '');
}

function textsOf(docs: readonly SearchDocument[]): string[] {
  return docs.flatMap((doc) => [
    doc.id,
    doc.name,
    doc.description,
    ...doc.parameters.flatMap((p) => [p.name, p.description ?? '']),
  ]);
}

// A small deterministic generator, so a failure can be replayed.
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('index build', () => {
  const catalogs = [
    'catalogs/real-mcp-tools',
    'retrieval/stabletoolbench-dev',
    'retrieval/metatool',
  ];
  const docs = catalogs.flatMap(corpus);

  it('splits ASCII text in one pass exactly as the Unicode expressions do', () => {
    const texts = textsOf(docs).filter((text) => !/[^\p{ASCII}]/u.test(text));
    expect(texts.length).toBeGreaterThan(20_000);
    const next = random(33);
    const alphabet = 'aBcXYZ09_-. /Qq1HTTPServer';
    for (let i = 0; i < 5_000; i++) {
      let text = '';
      for (let n = Math.floor(next() * 24); n > 0; n--)
        text += alphabet[Math.floor(next() * alphabet.length)];
      texts.push(text);
    }
    for (const text of texts) expect(splitWords(text), text).toEqual(splitByExpressions(text));
  });

  it("gives text joined with spaces its parts' terms one after the other (the server document)", () => {
    const texts = textsOf(docs);
    expect(texts.some((text) => /\p{Script=Han}/u.test(text))).toBe(true);
    for (let at = 0; at < texts.length; at += 50) {
      const parts = texts.slice(at, at + 50);
      expect(parts.flatMap((part) => tokenize(part))).toEqual(tokenize(parts.join(' ')));
    }
  });

  it('scores what plain BM25F over the documents says, through adds, removals and packing', () => {
    const weights = [3, 1, 0.5];
    const bm25 = { k: 1.2, b: 0.75 };
    const index = new InvertedIndex(weights, bm25);
    const held = new Map<number, string[][]>();
    const next = random(7);
    const vocabulary = Array.from({ length: 60 }, (_, i) => `t${i % 7 === 0 ? 0 : i}`);
    const pick = () => vocabulary[Math.floor(next() ** 2 * vocabulary.length)]!;
    for (let step = 0; step < 3_000; step++) {
      if (held.size > 0 && next() < 0.3) {
        const slots = [...held.keys()];
        const slot = slots[Math.floor(next() * slots.length)]!;
        index.remove(slot);
        held.delete(slot);
      } else {
        // Up to 300 repeats of a term: frequencies saturate at 255.
        const fields = weights.map(() =>
          Array.from({ length: Math.floor(next() * (next() < 0.01 ? 300 : 12)) }, pick),
        );
        held.set(index.add(fields), fields);
      }
      if (step % 500 !== 499) continue;
      const query = [pick(), pick(), pick()];
      const board = new ScoreBoard();
      index.score(
        query.map((term) => ({ term, weight: 1 })),
        board,
      );
      const expected = bm25f(held, weights, bm25, query);
      expect(new Set(board.touched)).toEqual(new Set(expected.keys()));
      for (const [slot, score] of expected) expect(board.get(slot)).toBeCloseTo(score, 3);
      for (const [slot, fields] of held)
        expect(new Set(index.termsOf(slot))).toEqual(new Set(fields.flat()));
    }
  });

  it('ranks the retrieval sets the same whether built at once or through changes', () => {
    for (const folder of ['retrieval/stabletoolbench-dev', 'retrieval/metatool']) {
      const groups = [...byServer(corpus(folder))];
      const atOnce = new ToolSearchIndex();
      for (const [server, tools] of groups) atOnce.setServer(server, tools);
      // Reverse order, a search (packing) halfway, a third of the servers removed and added
      // back: slots, term numbers and blocks all reused or moved.
      const changed = new ToolSearchIndex();
      groups.reverse().forEach(([server, tools], i) => {
        changed.setServer(server, tools);
        if (i === Math.floor(groups.length / 2)) changed.search('list files');
      });
      for (const [server, tools] of groups.filter((_, i) => i % 3 === 0)) {
        changed.removeServer(server);
        changed.search('send an email');
        changed.setServer(server, tools);
      }
      const queries = readQueries(new URL(folder, BENCH).pathname).slice(0, 600);
      for (const { query } of queries)
        expect(changed.search(query, { limit: 10 }), query).toEqual(
          atOnce.search(query, { limit: 10 }),
        );
    }
  });
});

// BM25F as the index defines it: per field, frequency (at most 255) × weight over the field's
// length normalisation; summed, saturated, times the term's IDF.
// Each query term counts once per time it is listed, as the index scores it.
function bm25f(
  documents: ReadonlyMap<number, string[][]>,
  weights: readonly number[],
  { k, b }: { k: number; b: number },
  query: readonly string[],
): Map<number, number> {
  const count = documents.size;
  const averages = weights.map((_, f) =>
    Math.max(
      [...documents.values()].reduce((sum, fields) => sum + fields[f]!.length, 0) / (count || 1),
      1,
    ),
  );
  const scores = new Map<number, number>();
  for (const term of query) {
    const df = [...documents.values()].filter((fields) =>
      fields.some((f) => f.includes(term)),
    ).length;
    const idf = Math.log(1 + (count - df + 0.5) / (df + 0.5));
    for (const [slot, fields] of documents) {
      let tf = 0;
      fields.forEach((terms, f) => {
        const frequency = Math.min(terms.filter((t) => t === term).length, 255);
        tf += (weights[f]! * frequency) / (1 - b + (b * terms.length) / averages[f]!);
      });
      if (tf > 0) scores.set(slot, (scores.get(slot) ?? 0) + (idf * (tf * (k + 1))) / (k + tf));
    }
  }
  return scores;
}
