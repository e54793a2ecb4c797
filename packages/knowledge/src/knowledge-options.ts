// What callers of Knowledge (knowledge.ts) pass and get back: its options, a search's options
// and one slim search result.
import type { Clock } from '@mcp-agent/core';
import type { Registry } from '@mcp-agent/registry';
import type { RankingSignal } from './ranking/ranking-signal.js';
import type { SearchIndex } from './search/search-index.js';
import type { RankingOptions } from './search/ranking-options.js';
import type { SemanticOptions } from './semantic/semantic-ranker.js';

/** One slim search result: what the model needs to decide which tools to describe. */
export interface ToolSearchResult {
  /** The tool's id, `<server>.<tool>`. */
  readonly tool_id: string;
  /** Its description, as its server gives it. */
  readonly description: string;
  /** The ranking score: comparable within one result list only. */
  readonly score: number;
  /** 0–1, follows the order (`SearchHit.relevance`); under `goodMatch` the hit is a weak one. */
  readonly relevance: number;
}

/** Options of {@link Knowledge.search}. */
export interface KnowledgeSearchOptions {
  /** Results to return; default 5, at most 50. */
  readonly limit?: number;
  /** Only these servers (intersected with the ones the request may use). */
  readonly servers?: readonly string[];
}

/** Options of {@link Knowledge}. */
export interface KnowledgeOptions {
  /** Where each tenant's servers, catalogs and availability are read. */
  readonly registry: Registry;
  /** The ranking's knobs; the rest from the defaults (`DEFAULT_RANKING`). */
  readonly ranking?: Partial<RankingOptions>;
  /**
   * Catalogs whose search index is kept in memory, least recently used dropped; default 50. An
   * index serves every tenant with the same catalog (the same servers listing the same tools).
   */
  readonly maxIndexes?: number;
  /** Tenants whose catalog is remembered between requests; default 10,000 (~200 bytes each). */
  readonly maxTenants?: number;
  /**
   * An index and a remembered tenant no request used for this long are dropped (a later
   * request rebuilds them, a few milliseconds per catalog); default 30 minutes; 0 never.
   * Checked every minute (or every `idleMs`, if shorter).
   */
  readonly idleMs?: number;
  /** The clock idle time is measured on; default the system's. */
  readonly clock?: Clock;
  /**
   * Semantic ranking fused with the lexical one (`OpenAiCompatibleEmbedder` or any
   * `TextEmbedder`); vectors are cached in the registry's database. Off when absent.
   */
  readonly semantic?: SemanticOptions;
  /**
   * Ranking signals fused with the lexical search after the semantic one (each by its weight,
   * `fuseSignals`); none by default.
   */
  readonly signals?: readonly RankingSignal[];
  /** Makes each search index; default a `ToolSearchIndex` with `ranking`. */
  readonly createIndex?: () => SearchIndex;
}
