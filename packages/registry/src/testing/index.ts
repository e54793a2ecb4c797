export { serverFixtures, sqliteLockHolder } from './fixtures.js';
export { holdSqliteLock, watchEventLoop, type HeldLock } from './lock-holder.js';
export { createTestRegistry, testDialects, type TestDialect } from './test-registry.js';
export { MemoryPoolStore } from './memory-pool-store.js';
export { MemoryTokenStore } from './memory-token-store.js';
