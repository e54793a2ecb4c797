import MiniSearch from 'minisearch';
import type { SearchDocument } from '@mcp-agent/knowledge';

// The naive baseline of ../shared/bench/README.md, kept so every run compares against it:
// minisearch, fields name×2 / server×1.5 / description×1 / parameter names×0.5, OR, a small
// stop-word list, no stemming.
const SMALL_STOP_WORDS = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'of',
  'to',
  'in',
  'for',
  'on',
  'with',
  'is',
  'are',
  'i',
  'me',
  'my',
  'can',
  'you',
]);

/** The baseline index over `documents`; returns a query function. */
export function naiveBaseline(
  documents: readonly SearchDocument[],
): (query: string, limit: number) => string[] {
  const search = new MiniSearch({
    fields: ['name', 'server', 'description', 'params'],
    processTerm: (term) => (SMALL_STOP_WORDS.has(term.toLowerCase()) ? null : term.toLowerCase()),
    searchOptions: {
      boost: { name: 2, server: 1.5, description: 1, params: 0.5 },
      combineWith: 'OR',
    },
  });
  search.addAll(
    documents.map((doc) => ({
      id: doc.id,
      name: doc.name,
      server: doc.server,
      description: doc.description,
      params: doc.parameters.map((p) => p.name).join(' '),
    })),
  );
  return (query, limit) =>
    search
      .search(query)
      .slice(0, limit)
      .map((r) => r.id as string);
}
