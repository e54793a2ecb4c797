import { fuseSignals } from '../ranking/ranking-signal.js';
import type { SearchDocument, SearchHit } from '../search/search-document.js';
import type { Similarity } from './tool-vectors.js';

/**
 * Fuses the lexical ranking with the semantic one: `fuseSignals` with the semantic ranking as
 * the one other signal, `(1 − weight) · lexical + weight · semantic` over scores divided by
 * their ranking's best; a negative similarity counts as 0, a tool only the semantic ranking
 * found keeps relevance 0. Ties go to the lower id.
 */
export function fuseHybrid(
  lexical: readonly SearchHit[],
  semantic: readonly Similarity[],
  weight: number,
  lookup: (id: string) => SearchDocument | undefined,
): SearchHit[] {
  return fuseSignals(
    lexical,
    [{ weight, hits: semantic.map(({ id, similarity }) => ({ id, score: similarity })) }],
    lookup,
  );
}
