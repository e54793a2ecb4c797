/** One parameter of a tool, as search sees it. */
export interface SearchParameter {
  /** Its name. */
  readonly name: string;
  /** Its description, when the schema has one. */
  readonly description?: string;
  /** The string values it accepts, when its schema lists them (`enum`). */
  readonly values?: readonly string[];
}

/**
 * What the search index stores of a tool. Independent of the registry, so the benchmarks feed
 * it public catalogs directly and the product feeds it a tenant's `ToolSpec`s.
 */
export interface SearchDocument {
  /** Unique in the index; the product uses the `ToolId`. */
  readonly id: string;
  /** The server id; empty when a catalog has none. */
  readonly server: string;
  /** The tool's name. */
  readonly name: string;
  /** The tool's description. */
  readonly description: string;
  /** Its input parameters. */
  readonly parameters: readonly SearchParameter[];
}

/** One search hit. */
export interface SearchHit {
  /** The document's id. */
  readonly id: string;
  /** Its server id. */
  readonly server: string;
  /** The tool's name. */
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
