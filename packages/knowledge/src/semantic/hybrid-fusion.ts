import { compareText } from '@mcp-agent/core';
import type { SearchDocument, SearchHit } from '../search/search-document.js';
import type { Similarity } from './tool-vectors.js';

/**
 * Fuses the lexical ranking with the semantic one: each score divided by its ranking's best,
 * so neither scale matters, then `(1 − weight) · lexical + weight · semantic`, where a tool
 * absent from a ranking scores 0 in it and a negative similarity counts as 0. A tool only the
 * semantic ranking found keeps relevance 0: relevance measures words, not meaning. Ties go to
 * the lower id, so the order is deterministic.
 */
export function fuseHybrid(
  lexical: readonly SearchHit[],
  semantic: readonly Similarity[],
  weight: number,
  lookup: (id: string) => SearchDocument | undefined,
): SearchHit[] {
  const w = Math.min(1, Math.max(0, weight));
  const lexicalBest = Math.max(0, ...lexical.map((hit) => hit.score));
  const semanticBest = Math.max(0, ...semantic.map((s) => s.similarity));
  const fused = new Map<string, SearchHit>();
  for (const hit of lexical) {
    const share = lexicalBest > 0 ? hit.score / lexicalBest : 0;
    fused.set(hit.id, { ...hit, score: (1 - w) * share });
  }
  for (const { id, similarity } of semantic) {
    const share = semanticBest > 0 ? Math.max(0, similarity) / semanticBest : 0;
    const known = fused.get(id);
    if (known !== undefined) {
      fused.set(id, { ...known, score: known.score + w * share });
      continue;
    }
    const doc = lookup(id);
    if (doc === undefined) continue;
    fused.set(id, {
      id,
      server: doc.server,
      name: doc.name,
      score: w * share,
      relevance: 0,
    });
  }
  return [...fused.values()]
    .map((hit) => ({ ...hit, score: Math.round(hit.score * 1000) / 1000 }))
    .sort((a, b) => b.score - a.score || compareText(a.id, b.id));
}
