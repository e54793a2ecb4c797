export { createTestRegistry, testDialects, type TestDialect } from './test-registry.js';
export { MemoryPoolStore } from './memory-pool-store.js';
export { MemoryTokenStore } from './memory-token-store.js';
