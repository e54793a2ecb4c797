import { compareText } from '@mcp-agent/core';
import { inverseFrequency } from './bm25f.js';
import { InvertedIndex } from './inverted-index.js';
import { takesProgram } from './general-purpose.js';
import { languageVocabulary } from './parameter-text.js';
import { prepareQuery } from './query-preparation.js';
import { DEFAULT_RANKING, type RankingOptions } from './ranking-options.js';
import { ScoreBoard } from './score-board.js';
import type { SearchDocument } from './search-document.js';
import { tokenize } from './tokenizer.js';

/** What a server says of itself, beside its tools: its display name and description. */
export interface ServerAbout {
  /** Its display name, when its definition has one. */
  readonly name?: string | undefined;
  /** What it is for, from its definition (or the instructions it gives). */
  readonly description?: string | undefined;
}

/** One server ranked for a request as a whole. */
export interface ServerMatch {
  /** The server's id. */
  readonly server: string;
  /** Its fit: its text's share of the best server's BM25F score plus its best tool hit's share. */
  readonly score: number;
}

/** Options of {@link ServerRanking.rank}. */
export interface ServerRankOptions {
  /** Most servers named; default 3. */
  readonly limit?: number;
  /** Only these servers, when given. */
  readonly servers?: readonly string[];
  /**
   * The tool search's hits for the same request, if it ran: each server's best hit adds to its
   * fit, so the ranking agrees with the tools found where they fit well.
   */
  readonly hits?: readonly {
    readonly server: string;
    readonly score: number;
    readonly relevance?: number;
  }[];
}

// Field weights of a server's document: its id and name, its own description, its tools'
// names, its tools' descriptions and parameter names. What a server says of itself weighs as
// much as its tools' names: a short description is the one place its domain is said whole.
const FIELD_WEIGHTS = [2, 2, 1.5, 1];
// Length normalisation near full (b = 1 is pure density): a catalog ten times as long says
// every generic word ten times as often, and must not win a request on them (README).
const BM25 = { k: 1.2, b: 0.9 };
// Characters of each tool's description its server's document holds: what a tool is for is
// said first; the rest (examples, caveats) cost a long catalog's build and memory (README).
const TOOL_OPENING = 300;
// Weight of a server's best tool hit (as a share of the best hit) beside its text's score (as a
// share of the best server's): equal, chosen on the dev requests (package README).
const TOOL_EVIDENCE = 1;
// A server under this share of the best one's score is not named: it shares a word or two.
const MIN_SHARE = 0.25;
// Under this relevance of the best tool hit no tool's words answer the request well, and the
// best-fitting server with a general-purpose tool (one that takes SQL, a command, code) is
// named second: it may serve a request about its data or its machine in words no tool says.
// Chosen on the dev requests between 0.2 and 0.5 (package README).
const WEAK_FIT = 0.3;

/**
 * Ranks servers for a request as a whole: each server is one BM25F document of its id, its
 * own description and its tools' text, searched with the tool search's tokenizer, term
 * selection and thesaurus, so a request that misses every tool still points at the server
 * whose domain it is. Size-normalised: each term counts once per tool, and the document's
 * length (its number of tool terms) divides its frequencies almost fully, so a long catalog's
 * generic words do not outrank a short server's relevant ones.
 */
export class ServerRanking {
  readonly #ranking: RankingOptions;
  readonly #index = new InvertedIndex(FIELD_WEIGHTS, BM25);
  readonly #slots = new Map<string, number>();
  readonly #bySlot: (string | undefined)[] = [];
  readonly #board = new ScoreBoard();
  // How many tools of the whole catalog say each term, and each server's share of those counts
  // (to take back when it goes): a term's rarity is read per tool, not per server.
  readonly #toolFrequency = new Map<string, number>();
  readonly #termsOf = new Map<string, { counts: Map<string, number>; tools: number }>();
  // Servers with a tool that takes a program (`takesProgram`).
  readonly #general = new Set<string>();
  #toolCount = 0;

  /** `ranking` gives the query's term selection and expansion, as the tool search uses them. */
  constructor(ranking: RankingOptions = DEFAULT_RANKING) {
    this.#ranking = ranking;
  }

  /** Servers ranked. */
  get size(): number {
    return this.#slots.size;
  }

  /** Adds (or replaces) `server` with what it says of itself and its tools. */
  setServer(server: string, about: ServerAbout, documents: readonly SearchDocument[]): void {
    this.removeServer(server);
    const names: string[] = [];
    const texts: string[] = [];
    const counts = new Map<string, number>();
    for (const doc of documents) {
      // Once per tool: a term said by many tools is common to the server, not repeated by it.
      const name = new Set(tokenize(doc.name));
      const text = new Set(
        tokenize(
          `${doc.description.slice(0, TOOL_OPENING)} ${doc.parameters.map((p) => p.name).join(' ')} ${languageVocabulary(doc.parameters)}`,
        ),
      );
      names.push(...name);
      texts.push(...text);
      for (const term of new Set([...name, ...text])) counts.set(term, (counts.get(term) ?? 0) + 1);
    }
    for (const [term, count] of counts)
      this.#toolFrequency.set(term, (this.#toolFrequency.get(term) ?? 0) + count);
    this.#termsOf.set(server, { counts, tools: documents.length });
    this.#toolCount += documents.length;
    const slot = this.#index.add([
      tokenize(`${server} ${about.name ?? ''}`),
      tokenize(about.description ?? ''),
      names,
      texts,
    ]);
    this.#slots.set(server, slot);
    this.#bySlot[slot] = server;
    if (documents.some((doc) => takesProgram(doc.parameters))) this.#general.add(server);
  }

  /** Removes `server`. */
  removeServer(server: string): void {
    const slot = this.#slots.get(server);
    if (slot === undefined) return;
    this.#index.remove(slot);
    this.#bySlot[slot] = undefined;
    this.#slots.delete(server);
    const { counts, tools } = this.#termsOf.get(server)!;
    for (const [term, count] of counts) {
      const left = this.#toolFrequency.get(term)! - count;
      if (left === 0) this.#toolFrequency.delete(term);
      else this.#toolFrequency.set(term, left);
    }
    this.#toolCount -= tools;
    this.#termsOf.delete(server);
    this.#general.delete(server);
  }

  /**
   * The servers that best match `query` as a whole, best first, at most `limit`; a server
   * scoring under a quarter of the best is left out, and nothing is named when no server
   * shares a word with the request.
   */
  rank(query: string, options: ServerRankOptions = {}): ServerMatch[] {
    const limit = options.limit ?? 3;
    const allowed = options.servers === undefined ? undefined : new Set(options.servers);
    if (limit <= 0 || allowed?.size === 0) return [];
    const prepared = prepareQuery(this.#index, this.#ranking, tokenize(query), true);
    // A term weighs by its rarity among the catalog's tools, not among its servers: with a few
    // servers every word is "rare", and the long catalog that says every generic word won.
    // The index multiplies by its own (per-server) IDF, so the weight carries the ratio.
    const weighted = prepared.query.map((term) => ({
      ...term,
      weight:
        (term.weight *
          inverseFrequency(
            Math.max(1, this.#toolCount),
            Math.min(this.#toolCount, this.#toolFrequency.get(term.term) ?? 0),
          )) /
        this.#index.idf(term.term),
    }));
    const board = this.#board;
    board.clear();
    this.#index.score(weighted, board);
    // Each server's text score as a share of the best, plus its best tool hit's share of the
    // best hit (`TOOL_EVIDENCE`): a server with one tool that answers the request fits it.
    // Candidates: the text's best `limit` and the servers of the hits. Any other server has a
    // lower text share than those `limit` and no hit to add to it, so it could not be named.
    const keep =
      allowed === undefined ? undefined : (slot: number) => allowed.has(this.#bySlot[slot]!);
    const byText = board.top(
      limit,
      (a, b) => compareText(this.#bySlot[a]!, this.#bySlot[b]!),
      keep,
    );
    const bestText = byText.length === 0 ? 0 : board.get(byText[0]!);
    const textShare = (slot: number) => (bestText > 0 ? board.get(slot) / bestText : 0);
    const fit = new Map<string, number>();
    for (const slot of byText) fit.set(this.#bySlot[slot]!, textShare(slot));
    const hits = (options.hits ?? []).filter(
      (hit) => this.#slots.has(hit.server) && (allowed === undefined || allowed.has(hit.server)),
    );
    const bestHit = Math.max(0, ...hits.map((hit) => hit.score));
    const counted = new Set<string>();
    for (const hit of hits) {
      if (bestHit <= 0 || counted.has(hit.server)) continue;
      counted.add(hit.server);
      const text = fit.get(hit.server) ?? textShare(this.#slots.get(hit.server)!);
      fit.set(hit.server, text + (TOOL_EVIDENCE * hit.score) / bestHit);
    }
    const ranked = [...fit]
      .filter(([, score]) => score > 0)
      .sort(([a, x], [b, y]) => y - x || compareText(a, b));
    const best = ranked[0]?.[1] ?? 0;
    const named = ranked
      .filter(([, score]) => score >= best * MIN_SHARE)
      .slice(0, limit)
      .map(([server, score]) => ({ server, score: Math.round(score * 1000) / 1000 }));
    const bestRelevance = Math.max(0, ...hits.map((hit) => hit.relevance ?? 1));
    if (bestRelevance >= WEAK_FIT || limit < 2) return named;
    return this.#withGeneralPurpose(
      named,
      limit,
      allowed,
      (server) => fit.get(server) ?? textShare(this.#slots.get(server)!),
    );
  }

  // A weak request's answer names the best-fitting general-purpose server second, unless one
  // is already first or second. It must share a word with the request (its text, the language
  // words of its program parameter, or a tool hit): among several that share none, any choice
  // would be a guess.
  #withGeneralPurpose(
    named: ServerMatch[],
    limit: number,
    allowed: ReadonlySet<string> | undefined,
    fitOf: (server: string) => number,
  ): ServerMatch[] {
    if (named.slice(0, 2).some((match) => this.#general.has(match.server))) return named;
    const general = [...this.#general]
      .filter((server) => allowed === undefined || allowed.has(server))
      .map((server) => ({ server, score: Math.round(fitOf(server) * 1000) / 1000 }))
      .sort((a, b) => b.score - a.score || compareText(a.server, b.server));
    const chosen = general[0];
    if (chosen === undefined || chosen.score <= 0) return named;
    const rest = named.filter((match) => match.server !== chosen.server);
    return [...rest.slice(0, 1), chosen, ...rest.slice(1)].slice(0, limit);
  }
}
