import MiniSearch from 'minisearch';
import type { SearchDocument } from '@mcp-agent/knowledge';

/**
 * minisearch over the same text the index reads (name, server, description, parameter names
 * and descriptions), with its own tokenizer and the naive baseline's boosts: what the search
 * build is compared against in `pnpm bench search-speed` (issue 33: build no slower than it).
 */
export function minisearchIndex(documents: Iterable<SearchDocument>): MiniSearch<SearchDocument> {
  const search = new MiniSearch<SearchDocument>({
    fields: ['name', 'server', 'description', 'parameters'],
    extractField: (doc, field) =>
      field === 'parameters'
        ? doc.parameters.map((p) => `${p.name} ${p.description ?? ''}`).join(' ')
        : (doc[field as 'id' | 'name' | 'server' | 'description'] ?? ''),
    searchOptions: {
      boost: { name: 2, server: 1.5, description: 1, parameters: 0.5 },
      combineWith: 'OR',
    },
  });
  search.addAll([...documents]);
  return search;
}
