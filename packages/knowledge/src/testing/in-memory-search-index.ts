import { compareText } from '@mcp-agent/core';
import type { SearchDocument, SearchHit } from '../search/search-document.js';
import type { IndexSearchOptions, SearchIndex } from '../search/search-index.js';

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/**
 * A `SearchIndex` double for tests of code that uses an index: a tool scores the number of
 * query words found in its name, id or description, and its relevance is that share of the
 * query's words. No stemming, no thesaurus: predictable by reading the test.
 */
export class InMemorySearchIndex implements SearchIndex {
  readonly goodMatch: number;
  readonly #servers = new Map<string, Map<string, SearchDocument>>();
  #version = 0;

  constructor(options: { goodMatch?: number } = {}) {
    this.goodMatch = options.goodMatch ?? 0.5;
  }

  get size(): number {
    let size = 0;
    for (const tools of this.#servers.values()) size += tools.size;
    return size;
  }

  get version(): number {
    return this.#version;
  }

  setServer(server: string, documents: readonly SearchDocument[]): void {
    this.#servers.set(server, new Map(documents.map((doc) => [doc.id, doc])));
    this.#version++;
  }

  removeServer(server: string): void {
    if (this.#servers.delete(server)) this.#version++;
  }

  servers(): string[] {
    return [...this.#servers.keys()];
  }

  get(id: string): SearchDocument | undefined {
    for (const tools of this.#servers.values()) {
      const doc = tools.get(id);
      if (doc !== undefined) return doc;
    }
    return undefined;
  }

  *documents(): IterableIterator<SearchDocument> {
    for (const tools of this.#servers.values()) yield* tools.values();
  }

  search(query: string, options: IndexSearchOptions = {}): SearchHit[] {
    const asked = [...new Set(words(query))];
    if (asked.length === 0) return [];
    return this.#matching(options, (doc) => {
      const has = new Set(words(`${doc.id} ${doc.name} ${doc.description}`));
      const found = asked.filter((word) => has.has(word)).length;
      return found === 0 ? undefined : { score: found, relevance: found / asked.length };
    });
  }

  #matching(
    options: IndexSearchOptions,
    match: (doc: SearchDocument) => { score: number; relevance: number } | undefined,
  ): SearchHit[] {
    const hits: SearchHit[] = [];
    for (const [server, tools] of this.#servers) {
      if (options.servers !== undefined && !options.servers.includes(server)) continue;
      for (const doc of tools.values()) {
        const found = match(doc);
        if (found !== undefined) hits.push({ id: doc.id, server, name: doc.name, ...found });
      }
    }
    hits.sort((a, b) => b.score - a.score || compareText(a.id, b.id));
    return hits.slice(0, options.limit ?? 10);
  }
}
