import { compareText } from '@mcp-agent/core';
import { InvertedIndex, type QueryTerm } from './inverted-index.js';
import { ScoreBoard } from './score-board.js';
import type { SearchDocument, SearchHit } from './search-document.js';
import type { IndexSearchOptions, SearchIndex } from './search-index.js';
import { DEFAULT_RANKING, type RankingOptions } from './ranking-options.js';
import { tokenize } from './tokenizer.js';
import { parameterText } from './parameter-text.js';
import { queryCoverage, type PreparedQuery } from './query-coverage.js';
import { bigrams, prepareQuery } from './query-preparation.js';
import { cedictGloss, hasHan, type GlossSource, type TextGloss } from './chinese-gloss.js';

export type { IndexSearchOptions } from './search-index.js';

interface Scored {
  readonly hit: Omit<SearchHit, 'relevance'>;
  score: number;
}

interface IndexedTool {
  readonly doc: SearchDocument;
  readonly slot: number;
}

interface IndexedServer {
  readonly slot: number;
  readonly ids: readonly string[];
  // The tools' slots again, as a plain array: the server stage walks them on every query.
  readonly toolSlots: readonly number[];
}

// How many of the best-ranked tools the query's answerability is read from (#calibrate).
const CALIBRATION_DEPTH = 10;
// How deep the rankings that get fused are kept.
const RANK_DEPTH = 50;
// Characters of each tool's description that its server's document holds.
const SERVER_OPENING = 300;
// Share of the best server score below which the server stage leaves a server out.
const MIN_SERVER_SHARE = 0.2;

/**
 * BM25F search over tool documents, with identifier-aware tokenizing, stemming, stop words,
 * prefix matching, word-pair (phrase) matching, a general thesaurus of how tools name actions and
 * objects, a server-level second stage, clause fusion for multi-part requests, and an exact
 * tool-name or id hit always first. Incremental: documents are added and removed per server.
 */
export class ToolSearchIndex implements SearchIndex {
  readonly #ranking: RankingOptions;
  readonly #tools: InvertedIndex;
  // The second stage: each server as one document of all its tools, so a query about what a
  // server does lifts that server's tools even when a tool's own text is terse.
  readonly #serverIndex = new InvertedIndex([2, 1.5, 1], { k: 1.2, b: 0.75 });
  readonly #byServer = new Map<string, IndexedServer>();
  readonly #byId = new Map<string, IndexedTool>();
  readonly #bySlot: (SearchDocument | undefined)[] = [];
  readonly #serverBySlot: (string | undefined)[] = [];
  // Lowercased tool names and ids → the tool ids they name (one in all but rare cases).
  readonly #byExactName = new Map<string, string | string[]>();
  readonly #toolScores = new ScoreBoard();
  readonly #serverScores = new ScoreBoard();
  #version = 0;
  readonly #glossSource: GlossSource;
  #gloss: TextGloss | undefined;
  #glossWarning: string | undefined;

  /**
   * `gloss` is where English glosses of Chinese descriptions come from (default: CC-CEDICT from
   * the optional `@mcp-agent/cedict-data`), asked only when a description has Chinese text.
   */
  constructor(ranking: Partial<RankingOptions> = {}, gloss: GlossSource = cedictGloss) {
    this.#glossSource = gloss;
    // Nested knobs merge too, so `{"fieldBoost":{"name":5}}` from the environment keeps the rest.
    this.#ranking = {
      ...DEFAULT_RANKING,
      ...ranking,
      fieldBoost: { ...DEFAULT_RANKING.fieldBoost, ...ranking.fieldBoost },
      bm25: { ...DEFAULT_RANKING.bm25, ...ranking.bm25 },
      relevance: { ...DEFAULT_RANKING.relevance, ...ranking.relevance },
    };
    const {
      name,
      server,
      description,
      parameters,
      phrases,
      gloss: glossed,
    } = this.#ranking.fieldBoost;
    this.#tools = new InvertedIndex(
      [name, server, description, parameters, phrases, glossed],
      this.#ranking.bm25,
      [false, false, false, false, false, true],
    );
  }

  /** The ranking in effect, defaults filled in. */
  get ranking(): RankingOptions {
    return this.#ranking;
  }

  /** How many tools are indexed. */
  get size(): number {
    return this.#tools.count;
  }

  /** Changes whenever a server is set or removed. */
  get version(): number {
    return this.#version;
  }

  /** The least relevance of a good match (`ranking.relevance.goodMatch`). */
  get goodMatch(): number {
    return this.#ranking.relevance.goodMatch;
  }

  /** What limits the search now: the gloss dictionary missing while Chinese text is indexed. */
  get warnings(): readonly string[] {
    return this.#glossWarning === undefined ? [] : [this.#glossWarning];
  }

  /** Every indexed document. */
  documents(): IterableIterator<SearchDocument> {
    return [...this.#byId.values()].map((tool) => tool.doc)[Symbol.iterator]();
  }

  /** Adds (or replaces) every tool of `server`; other servers are untouched. */
  setServer(server: string, documents: readonly SearchDocument[]): void {
    this.removeServer(server);
    this.#version++;
    const unique = [...new Map(documents.map((doc) => [doc.id, doc])).values()];
    const serverTerms = tokenize(server);
    const toolSlots: number[] = [];
    // The server document's names and description openings, from the tools' own terms:
    // tokenizing text joined with spaces gives its parts' terms one after the other.
    const names: string[][] = [];
    const openings: string[][] = [];
    for (const doc of unique) {
      const name = tokenize(doc.name);
      const description = tokenize(doc.description);
      names.push(name);
      openings.push(
        doc.description.length <= SERVER_OPENING
          ? description
          : tokenize(doc.description.slice(0, SERVER_OPENING)),
      );
      const slot = this.#tools.add([
        name,
        serverTerms,
        description,
        tokenize(parameterText(doc)),
        [...bigrams(name), ...bigrams(description)],
        this.#glossOf(doc.description),
      ]);
      this.#byId.set(doc.id, { doc, slot });
      this.#bySlot[slot] = doc;
      toolSlots.push(slot);
      for (const key of exactKeys(doc)) {
        const ids = this.#byExactName.get(key);
        this.#byExactName.set(
          key,
          ids === undefined ? doc.id : [...(typeof ids === 'string' ? [ids] : ids), doc.id],
        );
      }
    }
    const slot = this.#serverIndex.add([serverTerms, names.flat(), openings.flat()]);
    this.#serverBySlot[slot] = server;
    this.#byServer.set(server, { slot, ids: unique.map((doc) => doc.id), toolSlots });
  }

  // The English gloss of a description with Chinese text, as index terms; the dictionary is
  // loaded the first time one is met, and its absence is said once in `warnings`.
  #glossOf(description: string): string[] {
    if (!hasHan(description)) return [];
    if (this.#gloss === undefined && this.#glossWarning === undefined) {
      const source = this.#glossSource();
      if ('gloss' in source) this.#gloss = source;
      else
        this.#glossWarning = `Tools described in Chinese are found only by Chinese words or their names: ${source.unavailable}. Install @mcp-agent/cedict-data (CC BY-SA 4.0) for English requests to reach them.`;
    }
    return this.#gloss === undefined ? [] : tokenize(this.#gloss.gloss(description));
  }

  /** Removes every tool of `server`. */
  removeServer(server: string): void {
    const indexed = this.#byServer.get(server);
    if (indexed === undefined) return;
    this.#version++;
    for (const id of indexed.ids) {
      const { doc, slot } = this.#byId.get(id)!;
      this.#tools.remove(slot);
      this.#bySlot[slot] = undefined;
      this.#byId.delete(doc.id);
      for (const key of exactKeys(doc)) {
        const ids = this.#byExactName.get(key);
        const left = typeof ids === 'string' ? [] : (ids ?? []).filter((other) => other !== id);
        if (left.length === 0) this.#byExactName.delete(key);
        else this.#byExactName.set(key, left.length === 1 ? left[0]! : left);
      }
    }
    this.#serverIndex.remove(indexed.slot);
    this.#serverBySlot[indexed.slot] = undefined;
    this.#byServer.delete(server);
  }

  /** The servers indexed. */
  servers(): string[] {
    return [...this.#byServer.keys()];
  }

  /** One indexed document, by id. */
  get(id: string): SearchDocument | undefined {
    return this.#byId.get(id)?.doc;
  }

  /** Ranked hits for a natural-language query, a tool name or a tool id. */
  search(query: string, options: IndexSearchOptions = {}): SearchHit[] {
    const limit = options.limit ?? 10;
    const allowed = options.servers === undefined ? undefined : new Set(options.servers);
    if (limit <= 0 || allowed?.size === 0) return [];
    const whole = prepareQuery(this.#tools, this.#ranking, tokenize(query));
    let ranked = this.#rank(whole, allowed);
    // A request that lists several needs ("…, and also …") is searched clause by clause too,
    // so each need gets its tools into the top ranks instead of the most wordy match winning.
    // A clause is searched with fewer expansions (`clauseExpansions` thesaurus terms a word,
    // no completions): the whole query already brought them, and expanding every clause in full
    // made a long request cost twice as much for nothing (package README, speed).
    const clauses = splitClauses(query)
      .map(tokenize)
      .filter((terms) => terms.length >= 2);
    const preparedClauses =
      clauses.length >= 2
        ? clauses.map((terms) => prepareQuery(this.#tools, this.#ranking, terms, true))
        : [];
    if (clauses.length >= 2 && this.#ranking.clauseWeight > 0) {
      ranked = fuse([
        { entries: ranked, weight: 1 },
        ...preparedClauses.map((prepared) => ({
          entries: this.#rank(prepared, allowed),
          weight: this.#ranking.clauseWeight,
        })),
      ]);
    }
    // An exact tool name or id always ranks first, whatever BM25 says.
    const named = this.#byExactName.get(query.trim().toLowerCase());
    const exactIds = new Set<string>();
    if (named !== undefined) {
      const top = Math.max(ranked[0]?.score ?? 0, 1);
      for (const id of typeof named === 'string' ? [named] : named) {
        const doc = this.get(id);
        if (doc === undefined || (allowed !== undefined && !allowed.has(doc.server))) continue;
        ranked = ranked.filter((entry) => entry.hit.id !== id);
        ranked.unshift({ hit: toHit(doc, top + 1), score: top + 1 });
        exactIds.add(id);
      }
    }
    const top = ranked.slice(0, limit);
    const calibrated = this.#calibrate(ranked, whole, preparedClauses, exactIds);
    return top.map(({ hit, score }) => ({
      ...hit,
      score: round(score),
      relevance: round(calibrated(score)),
    }));
  }

  // A hit's relevance follows the ranking: the query's answerability (the best coverage among
  // its first CALIBRATION_DEPTH hits, 1 for an exact name) scaled by the hit's share of the
  // best score, so a lower rank never shows a higher relevance. The best coverage is read from
  // several hits, not the first alone: the ranking may put a tool that answers fewer of the
  // query's words first (its name matched), and what "no good match" asks is whether any
  // connected tool's text answers the request, not whether the first one does.
  #calibrate(
    ranked: readonly Scored[],
    whole: PreparedQuery,
    clauses: readonly PreparedQuery[],
    exactIds: ReadonlySet<string>,
  ): (score: number) => number {
    const best = ranked[0]?.score ?? 0;
    if (best <= 0) return () => 0;
    let answerable = 0;
    if (exactIds.size > 0) answerable = 1;
    else {
      // A tool answers one need of a request that lists several: its coverage is its fit to
      // the whole request or to the clause it fits best.
      const ids = ranked.slice(0, CALIBRATION_DEPTH).map(({ hit }) => hit.id);
      for (const prepared of [whole, ...clauses]) {
        for (const coverage of queryCoverage(
          this.#tools,
          ids.map((id) => this.#byId.get(id)?.slot),
          prepared,
          this.#ranking.relevance.absentWeight,
          this.#ranking.relevance.informationCap,
        ))
          answerable = Math.max(answerable, coverage);
      }
    }
    return (score) => (answerable * Math.max(0, score)) / best;
  }

  // BM25F over the tool fields with the query expanded, plus the server stage.
  #rank({ query }: PreparedQuery, allowed: ReadonlySet<string> | undefined): Scored[] {
    if (query.length === 0) return [];
    const board = this.#toolScores;
    board.clear();
    this.#tools.score(query, board);
    this.#addServerStage(query);
    const keep =
      allowed === undefined ? undefined : (slot: number) => allowed.has(this.#bySlot[slot]!.server);
    const tieBreak = (a: number, b: number) =>
      compareText(this.#bySlot[a]!.id, this.#bySlot[b]!.id);
    return board.top(RANK_DEPTH, tieBreak, keep).map((slot) => {
      const score = board.get(slot);
      return { hit: toHit(this.#bySlot[slot]!, score), score };
    });
  }

  // Adds to every tool of a matching server its server's share of the best server score,
  // scaled to the best tool score, so the two stages are on one scale whatever the corpus.
  #addServerStage(query: readonly QueryTerm[]): void {
    const weight = this.#ranking.serverWeight;
    if (weight === 0 || this.#byServer.size < 2) return;
    const servers = this.#serverScores;
    servers.clear();
    this.#serverIndex.score(query, servers);
    const bestServer = servers.best();
    const bestTool = this.#toolScores.best();
    if (bestServer === 0 || bestTool === 0) return;
    const scale = (weight * bestTool) / bestServer;
    for (const slot of servers.touched) {
      // Servers far below the best one could only reorder the tail; skipping them keeps a
      // query's cost from growing with every server that shares one common word.
      if (servers.get(slot) < bestServer * MIN_SERVER_SHARE) continue;
      const indexed = this.#byServer.get(this.#serverBySlot[slot]!)!;
      const bonus = scale * servers.get(slot);
      for (const toolSlot of indexed.toolSlots) this.#toolScores.add(toolSlot, bonus);
    }
  }
}

// Sentence ends, semicolons, and joiners that start a new need ("also", "and then", "as well as").
const CLAUSE_BREAK =
  /[.?!;\n]+|,?\s+(?:and\s+)?(?:also|then|additionally|furthermore|as well as|plus)\s+|,\s+and\s+/i;

function splitClauses(query: string): string[] {
  return query.split(CLAUSE_BREAK).filter((part) => part.trim() !== '');
}

// Fuses rankings by their scores normalised to each ranking's best, so a wordy clause cannot
// drown the others.
function fuse(rankings: readonly { entries: readonly Scored[]; weight: number }[]): Scored[] {
  const fused = new Map<string, Scored>();
  for (const { entries, weight } of rankings) {
    const best = entries[0]?.score || 1;
    for (const entry of entries) {
      const score = (weight * entry.score) / best;
      const existing = fused.get(entry.hit.id);
      if (existing === undefined) fused.set(entry.hit.id, { hit: entry.hit, score });
      else existing.score += score;
    }
  }
  return [...fused.values()].sort((a, b) => b.score - a.score || compareText(a.hit.id, b.hit.id));
}

function exactKeys(doc: SearchDocument): string[] {
  return [doc.name.toLowerCase(), doc.id.toLowerCase()];
}

function toHit(doc: SearchDocument, score: number): Omit<SearchHit, 'relevance'> {
  return { id: doc.id, server: doc.server, name: doc.name, score };
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}
