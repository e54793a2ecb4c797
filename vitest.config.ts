import { defineConfig } from 'vitest/config';
import projects from './vitest.workspace.js';

// Tests import workspace packages from their TypeScript sources (the `@mcp-agent/source`
// export condition), so a test run never depends on a stale dist/ build.
const conditions = ['@mcp-agent/source', 'node', 'import', 'module', 'default'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    projects,
    passWithNoTests: false,
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
