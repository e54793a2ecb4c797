import MiniSearch, { type SearchResult } from 'minisearch';
import type { SearchDocument, SearchHit } from './search-document.js';
import { expandQuery } from './thesaurus.js';
import { normalizeTerm, splitWords, tokenize } from './tokenizer.js';

/** Options of one search. */
export interface IndexSearchOptions {
  /** Hits to return; default 10. */
  readonly limit?: number;
  /** Only these providers, when given. */
  readonly providers?: readonly string[];
}

interface IndexedTool {
  readonly id: string;
  readonly provider: string;
  readonly name: string;
  readonly description: string;
  readonly parameters: string;
  /** The names of the provider's other tools: what the server is about. */
  readonly siblings: string;
}

/** The knobs of the ranking; the defaults are what the benchmarks chose (package README). */
export interface RankingOptions {
  readonly fieldBoost: Readonly<
    Record<'name' | 'provider' | 'description' | 'parameters' | 'siblings', number>
  >;
  /** Weight of the thesaurus expansion relative to the query itself. */
  readonly expansionWeight: number;
  /** Weight of the provider-level score (second stage) relative to the tool score. */
  readonly providerWeight: number;
  /** Most thesaurus terms added to one query. */
  readonly maxExpansions: number;
  /** Query terms at least this long also match as prefixes ("regist" → "registr"); 0 turns it off. */
  readonly prefixMinLength: number;
  /** Query terms at least this long also match with edit distance ≤ 20% of their length; 0 off. */
  readonly fuzzyMinLength: number;
  /** Weight of the per-clause rankings fused with the whole query's (multi-part requests). */
  readonly clauseWeight: number;
  /** Reciprocal-rank-fusion constant; 0 fuses by normalised score instead. */
  readonly fusionK: number;
  /** Most query terms searched: the rarest ones (by document frequency) are kept. */
  readonly maxQueryTerms: number;
  /** BM25 parameters (minisearch's BM25+): term saturation k, length normalisation b, floor d. */
  readonly bm25: { readonly k: number; readonly b: number; readonly d: number };
}

/** The default ranking. */
export const DEFAULT_RANKING: RankingOptions = Object.freeze({
  fieldBoost: Object.freeze({
    name: 3,
    provider: 1.5,
    description: 1.2,
    parameters: 0.4,
    siblings: 0.25,
  }),
  expansionWeight: 0.35,
  providerWeight: 0.5,
  maxExpansions: 12,
  prefixMinLength: 5,
  fuzzyMinLength: 0,
  clauseWeight: 0.4,
  fusionK: 0,
  maxQueryTerms: 32,
  bm25: Object.freeze({ k: 1.2, b: 0.7, d: 0.5 }),
});

interface Scored {
  readonly hit: SearchHit;
  score: number;
}

interface IndexedProvider {
  readonly id: string;
  readonly provider: string;
  readonly names: string;
  readonly descriptions: string;
}

/**
 * BM25 search over tool documents (minisearch), with identifier-aware tokenizing, stemming,
 * stop words, a general thesaurus of how tools name actions and objects, and an exact tool-name
 * or id hit always first. Incremental: documents are added and removed per provider.
 */
export class ToolSearchIndex {
  readonly #ranking: RankingOptions;
  readonly #search: MiniSearch<IndexedTool>;
  // The second stage: each provider as one document of all its tools, so a query about what a
  // server does lifts that server's tools even when a tool's own text is terse.
  readonly #providers = new MiniSearch<IndexedProvider>({
    fields: ['provider', 'names', 'descriptions'],
    storeFields: ['provider'],
    tokenize: splitWords,
    processTerm: normalizeTerm,
    searchOptions: { boost: { provider: 2, names: 1.5, descriptions: 1 }, combineWith: 'OR' },
  });

  constructor(ranking: Partial<RankingOptions> = {}) {
    this.#ranking = { ...DEFAULT_RANKING, ...ranking };
    this.#search = new MiniSearch<IndexedTool>({
      fields: ['name', 'provider', 'description', 'parameters', 'siblings'],
      storeFields: ['provider', 'name'],
      tokenize: splitWords,
      processTerm: normalizeTerm,
      searchOptions: {
        boost: this.#ranking.fieldBoost,
        combineWith: 'OR',
        bm25: this.#ranking.bm25,
      },
    });
  }
  readonly #byProvider = new Map<string, Map<string, SearchDocument>>();
  readonly #byExactName = new Map<string, Set<string>>();
  // Documents containing each term: picks a long query's most selective terms.
  readonly #documentFrequency = new Map<string, number>();

  /** How many tools are indexed. */
  get size(): number {
    return this.#search.documentCount;
  }

  /** Adds (or replaces) every tool of `provider`; other providers are untouched. */
  setProvider(provider: string, documents: readonly SearchDocument[]): void {
    this.removeProvider(provider);
    const tools = new Map(documents.map((doc) => [doc.id, doc]));
    this.#byProvider.set(provider, tools);
    const siblings = [...tools.values()].map((doc) => doc.name).join(' ');
    this.#providers.add({
      id: `provider:${provider}`,
      provider,
      names: siblings,
      descriptions: [...tools.values()].map((doc) => doc.description.slice(0, 300)).join(' '),
    });
    this.#search.addAll(
      [...tools.values()].map((doc) => ({
        id: doc.id,
        provider: doc.provider,
        name: doc.name,
        description: doc.description,
        parameters: doc.parameters.map((p) => `${p.name} ${p.description ?? ''}`).join(' '),
        siblings,
      })),
    );
    for (const doc of tools.values()) {
      this.#countTerms(doc, 1);
      for (const key of [doc.name.toLowerCase(), doc.id.toLowerCase()]) {
        const ids = this.#byExactName.get(key) ?? new Set<string>();
        ids.add(doc.id);
        this.#byExactName.set(key, ids);
      }
    }
  }

  /** Removes every tool of `provider`. */
  removeProvider(provider: string): void {
    const tools = this.#byProvider.get(provider);
    if (tools === undefined) return;
    for (const doc of tools.values()) {
      this.#search.discard(doc.id);
      this.#countTerms(doc, -1);
      for (const key of [doc.name.toLowerCase(), doc.id.toLowerCase()]) {
        const ids = this.#byExactName.get(key);
        ids?.delete(doc.id);
        if (ids?.size === 0) this.#byExactName.delete(key);
      }
    }
    this.#providers.discard(`provider:${provider}`);
    this.#byProvider.delete(provider);
  }

  /** The providers indexed. */
  providers(): string[] {
    return [...this.#byProvider.keys()];
  }

  /** One indexed document, by id. */
  get(id: string): SearchDocument | undefined {
    for (const tools of this.#byProvider.values()) {
      const doc = tools.get(id);
      if (doc !== undefined) return doc;
    }
    return undefined;
  }

  /** Ranked hits for a natural-language query, a tool name or a tool id. */
  search(query: string, options: IndexSearchOptions = {}): SearchHit[] {
    const limit = options.limit ?? 10;
    const allowed = options.providers === undefined ? undefined : new Set(options.providers);
    let ranked = this.#rank(tokenize(query), allowed);
    // A request that lists several needs ("…, and also …") is searched clause by clause too,
    // so each need gets its tools into the top ranks instead of the most wordy match winning.
    const clauses = splitClauses(query)
      .map(tokenize)
      .filter((terms) => terms.length >= 2);
    if (clauses.length >= 2 && this.#ranking.clauseWeight > 0) {
      ranked = this.#fuse([
        { entries: ranked, weight: 1 },
        ...clauses.map((terms) => ({
          entries: this.#rank(terms, allowed),
          weight: this.#ranking.clauseWeight,
        })),
      ]);
    }
    // An exact tool name or id always ranks first, whatever BM25 says.
    const exact = this.#byExactName.get(query.trim().toLowerCase());
    if (exact !== undefined) {
      const top = Math.max(ranked[0]?.score ?? 0, 1);
      for (const id of exact) {
        const doc = this.get(id);
        if (doc === undefined || (allowed !== undefined && !allowed.has(doc.provider))) continue;
        const existing = ranked.findIndex((entry) => entry.hit.id === id);
        if (existing >= 0) ranked.splice(existing, 1);
        ranked.unshift({
          hit: { id, provider: doc.provider, name: doc.name, score: top + 1 },
          score: top + 1,
        });
      }
    }
    return ranked.slice(0, limit).map(({ hit, score }) => ({ ...hit, score: round(score) }));
  }

  #countTerms(doc: SearchDocument, delta: 1 | -1): void {
    const text = `${doc.name} ${doc.description} ${doc.parameters.map((p) => p.name).join(' ')}`;
    for (const term of new Set(tokenize(text))) {
      const count = (this.#documentFrequency.get(term) ?? 0) + delta;
      if (count <= 0) this.#documentFrequency.delete(term);
      else this.#documentFrequency.set(term, count);
    }
  }

  // Keeps the query's rarest distinct terms, in their original order: common words add time
  // and little ranking signal.
  #selectTerms(terms: readonly string[]): string[] {
    const distinct = [...new Set(terms)];
    if (distinct.length <= this.#ranking.maxQueryTerms) return distinct;
    const rarest = new Set(
      [...distinct]
        .sort(
          (a, b) => (this.#documentFrequency.get(a) ?? 0) - (this.#documentFrequency.get(b) ?? 0),
        )
        .slice(0, this.#ranking.maxQueryTerms),
    );
    return distinct.filter((term) => rarest.has(term));
  }

  // BM25 over the tool fields, the thesaurus expansion, then the provider stage.
  #rank(allTerms: readonly string[], allowed: ReadonlySet<string> | undefined): Scored[] {
    const terms = this.#selectTerms(allTerms);
    if (terms.length === 0) return [];
    const filter =
      allowed === undefined ? undefined : (r: SearchResult) => allowed.has(r.provider as string);
    const { prefixMinLength, fuzzyMinLength } = this.#ranking;
    // Queries are tokenised once by us; minisearch must not split or stem them again.
    const queryOptions = {
      tokenize: splitOnSpace,
      processTerm: keep,
      prefix: (term: string) => prefixMinLength > 0 && term.length >= prefixMinLength,
      fuzzy: (term: string) => (fuzzyMinLength > 0 && term.length >= fuzzyMinLength ? 0.2 : false),
      ...(filter ? { filter } : {}),
    };
    const scores = new Map<string, Scored>();
    const add = (results: SearchResult[], weight: number) => {
      for (const result of results) {
        const id = result.id as string;
        const entry = scores.get(id);
        const score = result.score * weight;
        if (entry === undefined) {
          scores.set(id, {
            hit: { id, provider: result.provider as string, name: result.name as string, score },
            score,
          });
        } else entry.score += score;
      }
    };
    add(this.#search.search(terms.join(' '), queryOptions), 1);
    const expansions = expandQuery(terms).slice(0, this.#ranking.maxExpansions);
    if (expansions.length > 0) {
      add(this.#search.search(expansions.join(' '), queryOptions), this.#ranking.expansionWeight);
    }
    this.#addProviderStage(terms, scores, allowed);
    return [...scores.values()].sort((a, b) => b.score - a.score || compare(a.hit.id, b.hit.id));
  }

  // Fuses rankings by their scores normalised to each ranking's best (so a wordy clause cannot
  // drown the others), or, with fusionK > 0, by weighted reciprocal rank.
  #fuse(rankings: readonly { entries: readonly Scored[]; weight: number }[]): Scored[] {
    const fused = new Map<string, Scored>();
    for (const { entries, weight } of rankings) {
      const best = entries[0]?.score || 1;
      entries.slice(0, 50).forEach((entry, rank) => {
        const score =
          this.#ranking.fusionK > 0
            ? weight / (this.#ranking.fusionK + rank + 1)
            : (weight * entry.score) / best;
        const existing = fused.get(entry.hit.id);
        if (existing === undefined) fused.set(entry.hit.id, { hit: entry.hit, score });
        else existing.score += score;
      });
    }
    return [...fused.values()].sort((a, b) => b.score - a.score || compare(a.hit.id, b.hit.id));
  }

  // Adds to each scored tool its provider's share of the best provider score, scaled to the
  // best tool score, so the two stages are on one scale whatever the corpus.
  #addProviderStage(
    terms: readonly string[],
    scores: Map<string, Scored>,
    allowed: ReadonlySet<string> | undefined,
  ): void {
    if (this.#ranking.providerWeight === 0 || this.#byProvider.size < 2 || scores.size === 0)
      return;
    const providerResults = this.#providers.search(terms.join(' '), {
      tokenize: splitOnSpace,
      processTerm: keep,
      ...(allowed ? { filter: (r: SearchResult) => allowed.has(r.provider as string) } : {}),
    });
    const bestProvider = providerResults[0]?.score ?? 0;
    if (bestProvider === 0) return;
    const providerScore = new Map(
      providerResults.map((r) => [r.provider as string, r.score / bestProvider]),
    );
    let bestTool = 0;
    for (const entry of scores.values()) bestTool = Math.max(bestTool, entry.score);
    const scale = this.#ranking.providerWeight * bestTool;
    for (const entry of scores.values())
      entry.score += scale * (providerScore.get(entry.hit.provider) ?? 0);
  }

  /**
   * Tools whose name or description matches `pattern` (a JavaScript regular expression,
   * case-insensitive), in id order: for callers that know what they want.
   */
  searchRegex(pattern: RegExp, options: IndexSearchOptions = {}): SearchHit[] {
    const limit = options.limit ?? 10;
    const hits: SearchHit[] = [];
    for (const [provider, tools] of this.#byProvider) {
      if (options.providers !== undefined && !options.providers.includes(provider)) continue;
      for (const doc of tools.values()) {
        pattern.lastIndex = 0;
        const inName = pattern.test(doc.name);
        pattern.lastIndex = 0;
        if (inName || pattern.test(doc.description)) {
          hits.push({ id: doc.id, provider, name: doc.name, score: inName ? 1 : 0.5 });
        }
      }
    }
    return hits.sort((a, b) => b.score - a.score || compare(a.id, b.id)).slice(0, limit);
  }
}

// Sentence ends, semicolons, and joiners that start a new need ("also", "and then", "as well as").
const CLAUSE_BREAK =
  /[.?!;\n]+|,?\s+(?:and\s+)?(?:also|then|additionally|furthermore|as well as|plus)\s+|,\s+and\s+/i;

function splitClauses(query: string): string[] {
  return query.split(CLAUSE_BREAK).filter((part) => part.trim() !== '');
}

const splitOnSpace = (text: string): string[] => text.split(' ');
const keep = (term: string): string => term;

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}
