import type { SearchDocument, SearchHit } from './search-document.js';

/** Options of one search. */
export interface IndexSearchOptions {
  /** Hits to return; default 10. */
  readonly limit?: number;
  /** Only these servers, when given. */
  readonly servers?: readonly string[];
}

/**
 * A searchable catalog of tools, changed server by server. `ToolSearchIndex` (BM25F) is the
 * product's; `InMemorySearchIndex` in `./testing` is a simple double for tests of its callers.
 */
export interface SearchIndex {
  /** Tools indexed. */
  readonly size: number;
  /** Changes whenever a server is set or removed. */
  readonly version: number;
  /** The least relevance of a result list's best hit for it to count as a good match. */
  readonly goodMatch: number;
  /** What limits the search now (a missing optional dictionary), for the answer's `warnings`. */
  readonly warnings?: readonly string[];
  /** Adds (or replaces) every tool of `server`; other servers are untouched. */
  setServer(server: string, documents: readonly SearchDocument[]): void;
  /** Removes every tool of `server`. */
  removeServer(server: string): void;
  /** The servers indexed. */
  servers(): string[];
  /** One indexed document, by id. */
  get(id: string): SearchDocument | undefined;
  /** Every indexed document. */
  documents(): IterableIterator<SearchDocument>;
  /** Ranked hits for a natural-language query, a tool name or a tool id. */
  search(query: string, options?: IndexSearchOptions): SearchHit[];
}
