export { serverFixtures } from './fixtures.js';
export { createTestRegistry, testDialects, type TestDialect } from './test-registry.js';
