export { InMemorySearchIndex } from './in-memory-search-index.js';
export {
  deterministicEmbedding,
  startTestEmbeddingServer,
  type EmbeddingFailure,
  type RecordedEmbeddingRequest,
  type TestEmbeddingServer,
  type TestEmbeddingServerOptions,
} from './test-embedding-server.js';
