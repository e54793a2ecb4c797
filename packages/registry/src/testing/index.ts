export { createTestRegistry, testDialects, type TestDialect } from './test-registry.js';
