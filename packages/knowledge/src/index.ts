export { MAX_QUERY_LENGTH, MAX_SEARCH_QUERIES } from './search-queries.js';
export { toDocument } from './tool-document.js';
export {
  Knowledge,
  type KnowledgeOptions,
  type KnowledgeSearchOptions,
  type ToolSearchResult,
} from './knowledge.js';
export type {
  FoundTool,
  QueryAnswer,
  QueryMatch,
  ServerTools,
  ToolSearchAnswer,
} from './tool-search-answer.js';
export {
  BROWSE_PAGE_SIZE,
  type BrowsedServer,
  type BrowseOptions,
  type ServerBrowseAnswer,
} from './server-browse.js';
export {
  OpenAiCompatibleEmbedder,
  type OpenAiCompatibleEmbedderOptions,
} from './semantic/openai-compatible-embedder.js';
export {
  fuseSignals,
  type RankingSignal,
  type SignalHit,
  type SignalRanked,
  type SignalRankings,
  type SignalUnavailable,
  type SignalScope,
  type WeightedRanking,
} from './ranking/ranking-signal.js';
export type { SemanticOptions } from './semantic/semantic-ranker.js';
export type { EmbedOptions, TextEmbedder } from './semantic/text-embedder.js';
export type { SearchDocument, SearchHit, SearchParameter } from './search/search-document.js';
export type { IndexSearchOptions, SearchIndex } from './search/search-index.js';
export {
  explainMatch,
  type MatchedField,
  type MatchExplanation,
} from './search/match-explanation.js';
export {
  DEFAULT_RANKING,
  type RankingOptions,
  type RelevanceOptions,
} from './search/ranking-options.js';
export { ToolSearchIndex } from './search/tool-search-index.js';
export {
  ToolboxBuilder,
  type ManifestServer,
  type ManifestTool,
  type ToolManifest,
} from './toolbox-builder.js';
export {
  describeTool,
  type DeepViewOptions,
  type DeepViewTool,
  type DeepViewType,
} from './views/deep-view.js';
export { firstLine, trimText } from './views/description-text.js';
export { inventoryView, type InventoryViewOptions } from './views/inventory-view.js';
export type { DeepViewParameter } from './views/parameter-list.js';
export { typeOf } from './views/schema-summary.js';
