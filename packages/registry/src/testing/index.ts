export {
  createTestRegistry,
  testDialects,
  type SharedDatabase,
  type TestDialect,
} from './test-registry.js';
export { MemoryPoolStore } from './memory-pool-store.js';
export { MemoryTokenStore } from './memory-token-store.js';
export { MemoryChangeHub } from './memory-change-hub.js';
export { MemoryGatewaySessionStore } from './memory-gateway-sessions.js';
