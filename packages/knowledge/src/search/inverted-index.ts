import SearchableMap from 'minisearch/SearchableMap';
import type { ScoreBoard } from './score-board.js';

/** One weighted query term. */
export interface QueryTerm {
  readonly term: string;
  readonly weight: number;
  /** The query term this one stands for (a prefix completion or thesaurus term), by position. */
  readonly source?: number;
  /** How fully a match on this term answers its source term, 0–1 (1 for the term itself). */
  readonly credit?: number;
}

/** BM25F parameters: term saturation `k`, length normalisation `b`. */
export interface Bm25Options {
  readonly k: number;
  readonly b: number;
}

// The documents that hold a term: parallel arrays, with `fieldCount` term frequencies per slot,
// and each document's saturated BM25F term weight as of index version `version`.
interface Postings {
  readonly slots: number[];
  readonly frequencies: number[];
  weights: Float64Array;
  version: number;
}

/**
 * An inverted index scored with BM25F: each document's field term frequencies are weighted and
 * length-normalised per field, summed, then saturated once, so a term repeated across fields
 * cannot outscore a rare one. Documents live in numbered slots (reused after removal) so that
 * scoring adds into a dense `ScoreBoard` instead of allocating a map per term (what made
 * minisearch's own `search()` too slow on 10k tools); the term dictionary is minisearch's radix
 * tree, which also answers prefix lookups.
 */
export class InvertedIndex {
  readonly #fieldWeights: readonly number[];
  readonly #bm25: Bm25Options;
  readonly #postings = new Map<string, Postings>();
  // Minisearch's radix tree holds the single words, for prefix lookups; postings live in a plain
  // map, which looks up several times faster than the tree.
  readonly #words = new SearchableMap<true>();
  readonly #documentTerms: (readonly string[] | undefined)[] = [];
  readonly #lengths: number[][];
  readonly #totalLengths: number[];
  readonly #freeSlots: number[] = [];
  #count = 0;
  // Bumped by every add and remove: the average field lengths, hence every saturated term
  // weight, depend on the whole index. Weights are recomputed per term when next queried.
  #version = 0;

  constructor(fieldWeights: readonly number[], bm25: Bm25Options) {
    this.#fieldWeights = fieldWeights;
    this.#bm25 = bm25;
    this.#lengths = fieldWeights.map(() => []);
    this.#totalLengths = fieldWeights.map(() => 0);
  }

  /** Live documents. */
  get count(): number {
    return this.#count;
  }

  /** Slots in use or free: the size a per-slot array must have. */
  get capacity(): number {
    return this.#documentTerms.length;
  }

  /** Indexes a document given as the terms of each field; returns its slot. */
  add(fields: readonly (readonly string[])[]): number {
    const slot = this.#freeSlots.pop() ?? this.#documentTerms.length;
    const counts = new Map<string, number[]>();
    fields.forEach((terms, field) => {
      this.#lengths[field]![slot] = terms.length;
      this.#totalLengths[field]! += terms.length;
      for (const term of terms) {
        let frequencies = counts.get(term);
        if (frequencies === undefined) {
          frequencies = this.#fieldWeights.map(() => 0);
          counts.set(term, frequencies);
        }
        frequencies[field]!++;
      }
    });
    for (const [term, frequencies] of counts) {
      let postings = this.#postings.get(term);
      if (postings === undefined) {
        postings = { slots: [], frequencies: [], weights: new Float64Array(0), version: -1 };
        this.#postings.set(term, postings);
        if (!term.includes(' ')) this.#words.set(term, true);
      }
      postings.slots.push(slot);
      postings.frequencies.push(...frequencies);
    }
    this.#documentTerms[slot] = [...counts.keys()];
    this.#count++;
    this.#version++;
    return slot;
  }

  /** Removes the document in `slot`; the slot is reused by a later `add`. */
  remove(slot: number): void {
    const terms = this.#documentTerms[slot];
    if (terms === undefined) return;
    const width = this.#fieldWeights.length;
    for (const term of terms) {
      const postings = this.#postings.get(term)!;
      const at = postings.slots.indexOf(slot);
      const last = postings.slots.length - 1;
      // Order within postings does not matter: move the last entry into the hole.
      postings.slots[at] = postings.slots[last]!;
      postings.slots.pop();
      for (let f = 0; f < width; f++)
        postings.frequencies[at * width + f] = postings.frequencies[last * width + f]!;
      postings.frequencies.length = last * width;
      if (last === 0) {
        this.#postings.delete(term);
        this.#words.delete(term);
      }
    }
    this.#lengths.forEach((lengths, field) => {
      this.#totalLengths[field]! -= lengths[slot]!;
      lengths[slot] = 0;
    });
    this.#documentTerms[slot] = undefined;
    this.#freeSlots.push(slot);
    this.#count--;
    this.#version++;
  }

  /** The distinct terms of the document in `slot`. */
  termsOf(slot: number): readonly string[] {
    return this.#documentTerms[slot] ?? [];
  }

  /** Documents holding `term`. */
  documentFrequency(term: string): number {
    return this.#postings.get(term)?.slots.length ?? 0;
  }

  /** Inverse document frequency of `term` (BM25's, never negative). */
  idf(term: string): number {
    const df = this.documentFrequency(term);
    return Math.log(1 + (this.#count - df + 0.5) / (df + 0.5));
  }

  /** Single-word index terms starting with `prefix`, other than `prefix` itself. */
  termsWithPrefix(prefix: string): string[] {
    const terms: string[] = [];
    for (const term of this.#words.atPrefix(prefix).keys()) if (term !== prefix) terms.push(term);
    return terms;
  }

  /** Adds the BM25F score of every document matching `query` to `board`. */
  score(query: readonly QueryTerm[], board: ScoreBoard): void {
    for (const { term, weight } of query) {
      const postings = this.#postings.get(term);
      if (postings === undefined || weight === 0) continue;
      const { slots } = postings;
      const weights = this.#termWeights(postings);
      const idf = Math.log(1 + (this.#count - slots.length + 0.5) / (slots.length + 0.5));
      const factor = weight * idf;
      for (let i = 0; i < slots.length; i++) board.add(slots[i]!, factor * weights[i]!);
    }
  }

  // Each document's saturated term weight: field frequencies weighted and length-normalised,
  // summed, then saturated. Cached until the index changes.
  #termWeights(postings: Postings): Float64Array {
    if (postings.version === this.#version) return postings.weights;
    const { k, b } = this.#bm25;
    const fieldWeights = this.#fieldWeights;
    const width = fieldWeights.length;
    const averages = this.#totalLengths.map((total) => Math.max(total / (this.#count || 1), 1));
    const { slots, frequencies } = postings;
    const weights =
      postings.weights.length === slots.length ? postings.weights : new Float64Array(slots.length);
    for (let i = 0; i < slots.length; i++) {
      let tf = 0;
      for (let f = 0; f < width; f++) {
        const frequency = frequencies[i * width + f]!;
        if (frequency === 0) continue;
        const norm = 1 - b + (b * this.#lengths[f]![slots[i]!]!) / averages[f]!;
        tf += (fieldWeights[f]! * frequency) / norm;
      }
      weights[i] = (tf * (k + 1)) / (k + tf);
    }
    postings.weights = weights;
    postings.version = this.#version;
    return weights;
  }
}
