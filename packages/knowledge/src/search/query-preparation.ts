// How a request becomes the query that is scored (tool-search-index.ts): which of its terms are
// kept, what they expand to, and its word pairs. Kept apart from the index so the scoring side
// reads as stages over a query that is already made.
import type { InvertedIndex, QueryTerm } from './inverted-index.js';
import type { PreparedQuery } from './query-coverage.js';
import type { RankingOptions } from './ranking-options.js';
import { expandQuery } from './thesaurus.js';

/**
 * The query as it is scored: its rarest terms, their expansions and its word pairs. A clause of
 * a longer request is expanded less (`clauseExpansions`, no completions): the whole request
 * already brought those terms.
 */
export function prepareQuery(
  tools: InvertedIndex,
  ranking: RankingOptions,
  allTerms: readonly string[],
  clause = false,
): PreparedQuery {
  const terms = selectTerms(tools, ranking, allTerms);
  if (terms.length === 0) return { terms, query: [] };
  const query = expand(tools, ranking, terms, clause);
  const selected = new Set(terms);
  const phrases = new Set(
    bigrams(allTerms.filter((term) => selected.has(term))).slice(0, ranking.maxQueryTerms),
  );
  for (const phrase of phrases) query.push({ term: phrase, weight: 1 });
  return { terms, query };
}

/** Adjacent term pairs: a query's "cash flow" should prefer the tool that says "cash flow". */
export function bigrams(terms: readonly string[]): string[] {
  const pairs: string[] = [];
  for (let i = 1; i < terms.length; i++) pairs.push(`${terms[i - 1]} ${terms[i]}`);
  return pairs;
}

// Keeps the query's rarest distinct terms, in their original order: common words add time
// and little ranking signal.
function selectTerms(
  tools: InvertedIndex,
  ranking: RankingOptions,
  terms: readonly string[],
): string[] {
  const distinct = [...new Set(terms)];
  if (distinct.length <= ranking.maxQueryTerms) return distinct;
  const frequency = (term: string) => tools.documentFrequency(term);
  const rarest = new Set(
    [...distinct].sort((a, b) => frequency(a) - frequency(b)).slice(0, ranking.maxQueryTerms),
  );
  return distinct.filter((term) => rarest.has(term));
}

// The weighted query: the terms, their prefix matches, and the thesaurus expansion, each
// expansion marked with the term it stands for.
function expand(
  tools: InvertedIndex,
  ranking: RankingOptions,
  terms: readonly string[],
  clause: boolean,
): QueryTerm[] {
  const { prefixMinLength, prefixWeight, expansionWeight, relevance } = ranking;
  const maxExpansions = clause ? ranking.clauseExpansions : ranking.maxExpansions;
  const query: QueryTerm[] = terms.map((term) => ({ term, weight: 1 }));
  const present = new Set(terms);
  const addOnce = (term: string, weight: number, source: number, credit: number) => {
    if (present.has(term)) return;
    present.add(term);
    query.push({ term, weight, source, credit });
  };
  if (!clause && prefixMinLength > 0 && prefixWeight > 0) {
    terms.forEach((term, source) => {
      if (term.length < prefixMinLength) return;
      // Closer completions weigh more: "regist" is nearer "registr" than "registration".
      for (const longer of tools.termsWithPrefix(term)) {
        const closeness = term.length / longer.length;
        addOnce(longer, prefixWeight * closeness, source, relevance.prefixCredit * closeness);
      }
    });
  }
  if (expansionWeight > 0) {
    // Capped per term, so a long query's last terms are expanded as well as its first.
    terms.forEach((term, source) => {
      // Only terms the catalog holds: a cap spent on words no tool says would crowd out the
      // related word that does ("remember" → "memory", past "save", "store" and "keep").
      const held = expandQuery([term]).filter((synonym) => tools.documentFrequency(synonym) > 0);
      for (const synonym of held.slice(0, maxExpansions)) {
        addOnce(synonym, expansionWeight, source, relevance.synonymCredit);
      }
    });
  }
  return query;
}
