export { InMemorySearchIndex } from './in-memory-search-index.js';
export {
  deterministicEmbedding,
  startTestEmbeddingServer,
  type EmbeddingFailure,
  type RecordedEmbeddingRequest,
  type TestEmbeddingServer,
  type TestEmbeddingServerOptions,
} from './test-embedding-server.js';
export {
  byServer,
  readCorpus,
  readQueries,
  toSearchDocument,
  type BenchQuery,
  type BenchTool,
} from './bench-data.js';
export { manifestOf, toToolSpecs } from './bench-catalog.js';
// The parts Knowledge composes, for the benchmarks that measure each alone (browse pages, the
// search answer, server ranking, hybrid fusion, token counts); not the package's API.
export { countTokens } from '../views/token-count.js';
export { browsePage } from '../server-browse.js';
export { ServerRanking } from '../search/server-ranking.js';
export { toolSearchAnswer } from '../tool-search-answer.js';
export { fuseHybrid } from '../semantic/hybrid-fusion.js';
export { ToolVectors } from '../semantic/tool-vectors.js';
export { SEMANTIC_DEPTH } from '../semantic/semantic-ranker.js';
