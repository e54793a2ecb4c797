import type { ScoreBoard } from './score-board.js';
import { grown, nextSize } from './arena-growth.js';
import { WordList } from './word-list.js';
import { averageLengths, inverseFrequency, saturatedWeight, type Bm25Options } from './bm25f.js';

/** One weighted query term. */
export interface QueryTerm {
  readonly term: string;
  readonly weight: number;
  /** The query term this one stands for (a prefix completion or thesaurus term), by position. */
  readonly source?: number;
  /** How fully a match on this term answers its source term, 0–1 (1 for the term itself). */
  readonly credit?: number;
}

// A field's term frequency is stored in one byte: past 255 occurrences saturation has long
// made more of them count for nothing.
const MAX_FREQUENCY = 255;

/**
 * An inverted index scored with BM25F (bm25f.ts). Documents live in numbered slots (reused
 * after removal) so that scoring adds into a dense `ScoreBoard` instead of allocating a map per
 * term (what made minisearch's own `search()` too slow on 10k tools).
 *
 * Memory is a few flat typed arrays, not objects per term: every term's postings (slots, one
 * byte of frequency per field, and the cached saturated weights) are a block of one shared
 * arena, found by the term's number; each document's term numbers are a block of another.
 * Blocks grow by moving to the arena's end; the arenas are packed again (an eighth of room per
 * block) at the first search once a third of them is slack, so a catalog that stopped changing
 * holds little more than its postings.
 */
export class InvertedIndex {
  readonly #fieldWeights: readonly number[];
  readonly #width: number;
  readonly #bm25: Bm25Options;

  // The term dictionary: term → number, number → term, numbers of removed terms to reuse.
  readonly #ids = new Map<string, number>();
  readonly #terms: (string | undefined)[] = [];
  readonly #freeIds: number[] = [];
  // Single words, sorted, for prefix lookups.
  readonly #words = new WordList();
  // Per term number: its block in the postings arena, and the version its weights are of.
  #start = new Int32Array(0);
  #length = new Int32Array(0);
  #room = new Int32Array(0);
  #weightsVersion = new Int32Array(0);
  // The postings arena.
  #slots = new Int32Array(0);
  #frequencies = new Uint8Array(0);
  #weights = new Float32Array(0);
  #used = 0;
  // The distinct terms of the document being added and their field frequencies (`add`).
  #scratchIds = new Int32Array(0);
  #scratch = new Uint8Array(0);
  // Postings and document terms held at the last packing (0 before any): see `nextSize`.
  #packedUsed = 0;
  #packedDocumentUsed = 0;
  // Postings held (the sum of the terms' lengths): what the arena's slack is measured against.
  #live = 0;

  // Per slot: its block of term numbers in the document arena (-1: free), and field lengths.
  #documentStart = new Int32Array(0);
  #documentLength = new Int32Array(0);
  #documentTerms = new Int32Array(0);
  #documentUsed = 0;
  #documentLive = 0;
  readonly #lengths: Uint32Array[];
  readonly #totalLengths: number[];
  // Per field: documents where it is not empty, and whether its average length is over those
  // only (`averageLengths`).
  readonly #present: number[];
  readonly #sparse: readonly boolean[];
  readonly #freeSlots: number[] = [];
  #capacity = 0;
  #count = 0;
  // Bumped by every add and remove: the average field lengths, hence every saturated term
  // weight, depend on the whole index. Weights are recomputed per term when next queried.
  #version = 0;

  constructor(fieldWeights: readonly number[], bm25: Bm25Options, sparse: readonly boolean[] = []) {
    this.#sparse = sparse;
    this.#present = fieldWeights.map(() => 0);
    this.#fieldWeights = fieldWeights;
    this.#width = fieldWeights.length;
    this.#bm25 = bm25;
    this.#lengths = fieldWeights.map(() => new Uint32Array(0));
    this.#totalLengths = fieldWeights.map(() => 0);
  }

  /** Live documents. */
  get count(): number {
    return this.#count;
  }

  /** Slots in use or free: the size a per-slot array must have. */
  get capacity(): number {
    return this.#capacity;
  }

  /** Indexes a document given as the terms of each field; returns its slot. */
  add(fields: readonly (readonly string[])[]): number {
    const slot = this.#freeSlots.pop() ?? this.#newSlot();
    const width = this.#width;
    // The distinct terms, in order of first appearance, and their field frequencies (`width`
    // bytes each) go to scratch arrays: no map or array per document. Meanwhile a term's
    // `#weightsVersion` (stale anyway once it gets a posting) holds -2 - its position there.
    let ids = this.#scratchIds;
    let scratch = this.#scratch;
    let distinct = 0;
    fields.forEach((terms, field) => {
      this.#lengths[field]![slot] = terms.length;
      this.#totalLengths[field]! += terms.length;
      if (terms.length > 0) this.#present[field]!++;
      for (const term of terms) {
        const id = this.#idOf(term);
        let position = -2 - this.#weightsVersion[id]!;
        if (position < 0) {
          position = distinct++;
          this.#weightsVersion[id] = -2 - position;
          if (position === ids.length) {
            ids = this.#scratchIds = grown(ids, Math.max(64, 2 * ids.length), Int32Array);
            scratch = this.#scratch = grown(scratch, ids.length * width, Uint8Array);
          }
          ids[position] = id;
          scratch.fill(0, position * width, position * width + width);
        }
        const at = position * width + field;
        if (scratch[at]! < MAX_FREQUENCY) scratch[at]!++;
      }
    });
    this.#reserveDocumentTerms(distinct);
    this.#documentStart[slot] = this.#documentUsed;
    this.#documentLength[slot] = distinct;
    this.#documentLive += distinct;
    for (let position = 0; position < distinct; position++) {
      this.#append(ids[position]!, slot, scratch, position * width); // sets its version to -1
      this.#documentTerms[this.#documentUsed++] = ids[position]!;
    }
    this.#count++;
    this.#version++;
    return slot;
  }

  /** Removes the document in `slot`; the slot is reused by a later `add`. */
  remove(slot: number): void {
    if (slot >= this.#capacity || this.#documentStart[slot] === -1) return;
    const width = this.#width;
    const from = this.#documentStart[slot]!;
    for (let i = from; i < from + this.#documentLength[slot]!; i++) {
      const id = this.#documentTerms[i]!;
      const start = this.#start[id]!;
      const last = start + this.#length[id]! - 1;
      let at = start;
      while (this.#slots[at] !== slot) at++;
      // Order within postings does not matter: move the last entry into the hole.
      this.#slots[at] = this.#slots[last]!;
      this.#frequencies.copyWithin(at * width, last * width, last * width + width);
      this.#length[id]!--;
      this.#live--;
      this.#weightsVersion[id] = -1;
      if (this.#length[id] === 0) this.#forget(id);
    }
    this.#lengths.forEach((lengths, field) => {
      this.#totalLengths[field]! -= lengths[slot]!;
      if (lengths[slot]! > 0) this.#present[field]!--;
      lengths[slot] = 0;
    });
    this.#documentLive -= this.#documentLength[slot]!;
    this.#documentStart[slot] = -1;
    this.#documentLength[slot] = 0;
    this.#freeSlots.push(slot);
    this.#count--;
    this.#version++;
  }

  /** The distinct terms of the document in `slot`. */
  termsOf(slot: number): string[] {
    if (slot >= this.#capacity || this.#documentStart[slot] === -1) return [];
    const from = this.#documentStart[slot]!;
    const terms: string[] = [];
    for (let i = from; i < from + this.#documentLength[slot]!; i++)
      terms.push(this.#terms[this.#documentTerms[i]!]!);
    return terms;
  }

  /** Documents holding `term`. */
  documentFrequency(term: string): number {
    const id = this.#ids.get(term);
    return id === undefined ? 0 : this.#length[id]!;
  }

  /** Inverse document frequency of `term` (BM25's, never negative). */
  idf(term: string): number {
    return inverseFrequency(this.#count, this.documentFrequency(term));
  }

  /** Single-word index terms starting with `prefix`, other than `prefix` itself. */
  termsWithPrefix(prefix: string): string[] {
    return this.#words.withPrefix(prefix, (word) => this.#ids.has(word));
  }

  /** Adds the BM25F score of every document matching `query` to `board`. */
  score(query: readonly QueryTerm[], board: ScoreBoard): void {
    // Packed when more than a third of the arenas is slack (after a build, or many changes), not
    // after every change: the first search after adding one server stays cheap.
    if (
      this.#slots.length - this.#live > this.#live / 2 + 1024 ||
      this.#documentTerms.length - this.#documentLive > this.#documentLive / 2 + 1024
    )
      this.#pack();
    // Weights exist only once searched: a build never copies them around.
    if (this.#weights.length < this.#slots.length)
      this.#weights = grown(this.#weights, this.#slots.length, Float32Array);
    for (const { term, weight } of query) {
      const id = this.#ids.get(term);
      if (id === undefined || weight === 0) continue;
      const start = this.#start[id]!;
      const end = start + this.#length[id]!;
      if (this.#weightsVersion[id] !== this.#version) this.#computeWeights(id);
      const df = end - start;
      const factor = weight * inverseFrequency(this.#count, df);
      const slots = this.#slots;
      const weights = this.#weights;
      for (let i = start; i < end; i++) board.add(slots[i]!, factor * weights[i]!);
    }
  }

  // Each document's saturated term weight (bm25f.ts). Cached until the index changes.
  #computeWeights(id: number): void {
    const averages = averageLengths(this.#totalLengths, this.#present, this.#sparse, this.#count);
    const start = this.#start[id]!;
    for (let i = start; i < start + this.#length[id]!; i++)
      this.#weights[i] = saturatedWeight(
        this.#bm25,
        this.#fieldWeights,
        this.#frequencies,
        i,
        this.#lengths,
        this.#slots[i]!,
        averages,
      );
    this.#weightsVersion[id] = this.#version;
  }

  #idOf(term: string): number {
    let id = this.#ids.get(term);
    if (id !== undefined) return id;
    id = this.#freeIds.pop() ?? this.#terms.length;
    if (id === this.#terms.length) {
      this.#terms.push(term);
      if (id >= this.#start.length) this.#growTerms(id + 1);
    } else {
      this.#terms[id] = term;
    }
    this.#ids.set(term, id);
    this.#start[id] = this.#used;
    this.#length[id] = 0;
    this.#room[id] = 0;
    this.#weightsVersion[id] = -1;
    if (!term.includes(' ')) this.#words.add(term);
    return id;
  }

  #forget(id: number): void {
    const term = this.#terms[id]!;
    this.#ids.delete(term);
    this.#terms[id] = undefined;
    this.#freeIds.push(id);
    this.#room[id] = 0;
    if (!term.includes(' ')) this.#words.removed();
  }

  // Appends one posting to a term's block, moving the block to the arena's end (with room to
  // double) when it is full.
  #append(id: number, slot: number, frequencies: Uint8Array, from: number): void {
    const width = this.#width;
    const length = this.#length[id]!;
    if (length === this.#room[id]) {
      const room = Math.max(2, length * 2);
      const start = this.#start[id]!;
      if (start + length === this.#used && start + room <= this.#slots.length) {
        this.#used = start + room;
      } else {
        this.#reservePostings(room);
        const to = this.#used;
        this.#slots.copyWithin(to, start, start + length);
        this.#frequencies.copyWithin(to * width, start * width, (start + length) * width);
        this.#start[id] = to;
        this.#used = to + room;
      }
      this.#room[id] = room;
    }
    const at = this.#start[id]! + length;
    this.#slots[at] = slot;
    for (let f = 0; f < width; f++) this.#frequencies[at * width + f] = frequencies[from + f]!;
    this.#length[id] = length + 1;
    this.#live++;
    this.#weightsVersion[id] = -1;
  }

  // Every term's block and every document's block, end to end with no room to spare: what a
  // catalog that stopped changing keeps.
  #pack(): void {
    const width = this.#width;
    let total = 0;
    for (let id = 0; id < this.#terms.length; id++) total += this.#length[id]!;
    const slots = new Int32Array(total);
    const frequencies = new Uint8Array(total * width);
    const weights = new Float32Array(total);
    let at = 0;
    for (let id = 0; id < this.#terms.length; id++) {
      const start = this.#start[id]!;
      const length = this.#length[id]!;
      slots.set(this.#slots.subarray(start, start + length), at);
      frequencies.set(
        this.#frequencies.subarray(start * width, (start + length) * width),
        at * width,
      );
      weights.set(this.#weights.subarray(start, start + length), at);
      this.#start[id] = at;
      this.#room[id] = length;
      at += length;
    }
    this.#slots = slots;
    this.#frequencies = frequencies;
    this.#weights = weights;
    this.#used = total;
    this.#packedUsed = total;

    let documentTotal = 0;
    for (let slot = 0; slot < this.#capacity; slot++) documentTotal += this.#documentLength[slot]!;
    const terms = new Int32Array(documentTotal);
    at = 0;
    for (let slot = 0; slot < this.#capacity; slot++) {
      if (this.#documentStart[slot] === -1) continue;
      const start = this.#documentStart[slot]!;
      const length = this.#documentLength[slot]!;
      terms.set(this.#documentTerms.subarray(start, start + length), at);
      this.#documentStart[slot] = at;
      at += length;
    }
    this.#documentTerms = terms;
    this.#documentUsed = documentTotal;
    this.#packedDocumentUsed = documentTotal;
    this.#shrinkTerms();
  }

  #reservePostings(extra: number): void {
    const needed = this.#used + extra;
    if (needed <= this.#slots.length) return;
    const size = nextSize(this.#slots.length, needed, this.#packedUsed);
    this.#slots = grown(this.#slots, size, Int32Array);
    this.#frequencies = grown(this.#frequencies, size * this.#width, Uint8Array);
  }

  #reserveDocumentTerms(extra: number): void {
    const needed = this.#documentUsed + extra;
    if (needed <= this.#documentTerms.length) return;
    this.#documentTerms = grown(
      this.#documentTerms,
      nextSize(this.#documentTerms.length, needed, this.#packedDocumentUsed),
      Int32Array,
    );
  }

  #growTerms(needed: number): void {
    const size = Math.max(needed, this.#start.length * 2, 64);
    this.#start = grown(this.#start, size, Int32Array);
    this.#length = grown(this.#length, size, Int32Array);
    this.#room = grown(this.#room, size, Int32Array);
    this.#weightsVersion = grown(this.#weightsVersion, size, Int32Array);
  }

  // The per-term tables cut to the terms there are (packing runs after a build).
  #shrinkTerms(): void {
    const size = this.#terms.length;
    if (this.#start.length <= size) return;
    this.#start = this.#start.slice(0, size);
    this.#length = this.#length.slice(0, size);
    this.#room = this.#room.slice(0, size);
    this.#weightsVersion = this.#weightsVersion.slice(0, size);
  }

  #newSlot(): number {
    const slot = this.#capacity++;
    if (slot >= this.#documentStart.length) {
      const size = Math.max(slot + 1, this.#documentStart.length * 2, 16);
      this.#documentStart = grown(this.#documentStart, size, Int32Array);
      this.#documentLength = grown(this.#documentLength, size, Int32Array);
      this.#lengths.forEach((lengths, field) => {
        this.#lengths[field] = grown(lengths, size, Uint32Array);
      });
    }
    return slot;
  }
}
