/** The knobs of the ranking; the defaults are what the benchmarks chose (package README). */
export interface RankingOptions {
  /**
   * BM25F weight of each field of a tool; `phrases` are the adjacent word pairs of the name and
   * description, matched against the query's adjacent pairs; `gloss` is the English gloss of
   * a description written in Chinese (`chinese-gloss.ts`), low: a dictionary's first sense is
   * often not the sense meant.
   */
  readonly fieldBoost: Readonly<
    Record<'name' | 'server' | 'description' | 'parameters' | 'phrases' | 'gloss', number>
  >;
  /** Weight of the thesaurus expansion relative to the query itself. */
  readonly expansionWeight: number;
  /** Weight of the server-level score (second stage) relative to the best tool score. */
  readonly serverWeight: number;
  /** Most thesaurus terms added for one query term. */
  readonly maxExpansions: number;
  /** Most thesaurus terms added for one word of a clause of a multi-part request. */
  readonly clauseExpansions: number;
  /** Query terms at least this long also match as prefixes ("regist" → "registr"); 0 turns it off. */
  readonly prefixMinLength: number;
  /** Weight of a prefix match relative to the exact term. */
  readonly prefixWeight: number;
  /** Weight of the per-clause rankings fused with the whole query's (multi-part requests). */
  readonly clauseWeight: number;
  /** Most query terms searched: the rarest ones (by document frequency) are kept. */
  readonly maxQueryTerms: number;
  /** BM25F parameters: term saturation k, length normalisation b. */
  readonly bm25: {
    /** Term saturation: how fast repeats of a term stop adding. */
    readonly k: number;
    /** Length normalisation: 0 ignores a field's length, 1 normalises fully. */
    readonly b: number;
  };
  /** How a hit's `relevance` is reckoned, and where a good match starts. */
  readonly relevance: RelevanceOptions;
}

/** The knobs of a hit's `relevance` (`SearchHit.relevance`); the defaults are what `bench no-match` chose. */
export interface RelevanceOptions {
  /** Credit for a query term the tool has only through a thesaurus term (the term itself: 1). */
  readonly synonymCredit: number;
  /** Credit for a query term the tool has only as the start of a longer word. */
  readonly prefixCredit: number;
  /**
   * Weight of a query term no tool of the catalog has, relative to its IDF: such a word is
   * either a need nothing here meets ("github" with no GitHub server) or a value ("Paris").
   */
  readonly absentWeight: number;
  /**
   * Most information a query counts, in words no tool has (the most a word carries): past it a
   * longer request does not lower a tool's coverage. A long request says more than one tool
   * answers (its context, values, courtesy), and without the cap its words dilute every match.
   */
  readonly informationCap: number;
  /** The least relevance of a result list's best hit for it to count as a good match. */
  readonly goodMatch: number;
}

/** The default ranking. */
export const DEFAULT_RANKING: RankingOptions = Object.freeze({
  fieldBoost: Object.freeze({
    name: 4,
    server: 1.8,
    description: 0.7,
    parameters: 0.7,
    phrases: 1.2,
    gloss: 0.4,
  }),
  expansionWeight: 0.28,
  serverWeight: 0.6,
  maxExpansions: 12,
  clauseExpansions: 2,
  prefixMinLength: 5,
  prefixWeight: 0.35,
  clauseWeight: 0.1,
  maxQueryTerms: 32,
  bm25: Object.freeze({ k: 2.3, b: 0.65 }),
  relevance: Object.freeze({
    synonymCredit: 0.1,
    prefixCredit: 0.5,
    absentWeight: 1,
    informationCap: 4,
    goodMatch: 0.1,
  }),
});
