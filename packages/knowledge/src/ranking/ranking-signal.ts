import { compareText, type AgentContext } from '@mcp-agent/core';
import type { SearchDocument, SearchHit } from '../search/search-document.js';
import type { SearchIndex } from '../search/search-index.js';

/** One tool as one ranking signal scores it for a query: higher is better. */
export interface SignalHit {
  /** The tool's id. */
  readonly id: string;
  /** Comparable within one signal's list only (fusion divides by the list's best). */
  readonly score: number;
}

/** What a signal ranks over for one search: the catalog's index, limited to these servers. */
export interface SignalScope {
  /** The request's context (its clock, logger and abort signal). */
  readonly ctx: AgentContext;
  /** The catalog's search index (documents, lexical search). */
  readonly index: SearchIndex;
  /** Only tools of these servers may be ranked. */
  readonly servers: ReadonlySet<string>;
  /** How many tools each query's ranking keeps. */
  readonly depth: number;
}

/** A signal's ranking: each query's tools, best first. */
export interface SignalRanked {
  /** Each query (as given) → its tools, best first. */
  readonly ranked: ReadonlyMap<string, readonly SignalHit[]>;
}

/** A signal that cannot rank now, and why. */
export interface SignalUnavailable {
  /** Why, for the answer's `warnings`. */
  readonly warning: string;
}

/** A signal's answer: each query's tools, best first; or, when it cannot answer, why. */
export type SignalRankings = SignalRanked | SignalUnavailable;

/**
 * One source of ranking evidence beside the lexical search (which is always the list's first
 * entry): the semantic ranker over an embedder is one; anything that scores tools for a query
 * is another. Its rankings are fused with the lexical one by weight (`fuseSignals`).
 */
export interface RankingSignal {
  /** A short name for warnings and reports. */
  readonly name: string;
  /** Its weight in the fusion, 0–1; the lexical ranking gets what the signals leave. */
  readonly weight: number;
  /**
   * Its own score at or above which a query has a good match even when no tool shares its
   * words (for an embedder, a similarity); absent, only words decide.
   */
  readonly goodMatch?: number;
  /** Ranks each query's tools; a failure is a warning (the search goes on without it). */
  rank(queries: readonly string[], scope: SignalScope): Promise<SignalRankings>;
}

/** One signal's ranking of one query, with its weight. */
export interface WeightedRanking {
  /** The signal's weight, 0–1. */
  readonly weight: number;
  /** Its tools for the query, best first. */
  readonly hits: readonly SignalHit[];
}

/**
 * Fuses the lexical ranking with the other signals' rankings: each score divided by its
 * ranking's best, so no scale matters, then the weighted sum, the lexical ranking weighing
 * `1 − Σ weights` (at least 0). A tool absent from a ranking scores 0 in it, a negative score
 * counts as 0. A tool only another signal found keeps relevance 0: relevance measures words.
 * Ties go to the lower id, so the order is deterministic.
 */
export function fuseSignals(
  lexical: readonly SearchHit[],
  others: readonly WeightedRanking[],
  lookup: (id: string) => SearchDocument | undefined,
): SearchHit[] {
  const clamp = (w: number) => Math.min(1, Math.max(0, w));
  const lexicalWeight = Math.max(0, 1 - others.reduce((sum, r) => sum + clamp(r.weight), 0));
  const lexicalBest = Math.max(0, ...lexical.map((hit) => hit.score));
  const fused = new Map<string, SearchHit>();
  for (const hit of lexical) {
    const share = lexicalBest > 0 ? hit.score / lexicalBest : 0;
    fused.set(hit.id, { ...hit, score: lexicalWeight * share });
  }
  for (const { weight, hits } of others) {
    const w = clamp(weight);
    const best = Math.max(0, ...hits.map((hit) => hit.score));
    for (const { id, score } of hits) {
      const share = best > 0 ? Math.max(0, score) / best : 0;
      const known = fused.get(id);
      if (known !== undefined) {
        fused.set(id, { ...known, score: known.score + w * share });
        continue;
      }
      const doc = lookup(id);
      if (doc === undefined) continue;
      fused.set(id, { id, server: doc.server, name: doc.name, score: w * share, relevance: 0 });
    }
  }
  return [...fused.values()]
    .map((hit) => ({ ...hit, score: Math.round(hit.score * 1000) / 1000 }))
    .sort((a, b) => b.score - a.score || compareText(a.id, b.id));
}

/**
 * One query's rankings fused ({@link fuseSignals}), then shaped as its answer: a tool the query
 * names exactly (its name or id) first with relevance 1, every other tool's relevance the best
 * relevance scaled by its share of the best fused score, so relevance follows the fused order.
 */
export function fuseForQuery(
  query: string,
  lexical: readonly SearchHit[],
  others: readonly WeightedRanking[],
  index: SearchIndex,
): SearchHit[] {
  const fused = fuseSignals(lexical, others, (id) => index.get(id));
  const named = query.trim().toLowerCase();
  const exact = (hit: SearchHit) =>
    hit.name.toLowerCase() === named || hit.id.toLowerCase() === named;
  const top = Math.max(0, ...fused.map((hit) => hit.relevance));
  const best = Math.max(Number.MIN_VALUE, ...fused.map((hit) => hit.score));
  const scaled = fused.map((hit) => {
    const relevance = exact(hit) ? 1 : Math.round((top * hit.score * 1000) / best) / 1000;
    return { ...hit, relevance };
  });
  return [...scaled.filter(exact), ...scaled.filter((hit) => !exact(hit))];
}
