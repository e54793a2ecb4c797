/** One parameter of a tool, as search sees it. */
export interface SearchParameter {
  readonly name: string;
  readonly description?: string;
}

/**
 * What the search index stores of a tool. Independent of the registry, so the benchmarks feed
 * it public catalogs directly and the product feeds it a tenant's `ToolSpec`s.
 */
export interface SearchDocument {
  /** Unique in the index; the product uses the `ToolId`. */
  readonly id: string;
  /** The provider (server) id; empty when a catalog has none. */
  readonly provider: string;
  readonly name: string;
  readonly description: string;
  readonly parameters: readonly SearchParameter[];
}

/** One search hit. */
export interface SearchHit {
  readonly id: string;
  readonly provider: string;
  readonly name: string;
  /** The ranking score: comparable within one result list only. */
  readonly score: number;
  /**
   * How much of the query this tool covers, 0–1, comparable across queries: the share of the
   * query's information (each term weighted by its rarity in the catalog) found in the tool's
   * text. An exact tool name or id is 1.
   */
  readonly relevance: number;
}
