import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import projects from './vitest.workspace.js';

// Tests import workspace packages from their TypeScript sources (the `@mcp-agent/source`
// export condition), so a test run never depends on a stale dist/ build.
// Vite's own defaults follow it; only workspace packages declare the custom condition, and
// externalised dependencies (pg, better-sqlite3) are left to Node's own resolution.
const source = '@mcp-agent/source';

export default defineConfig({
  resolve: { conditions: [source, 'module', 'development|production'] },
  ssr: { resolve: { conditions: [source, 'module', 'node', 'development|production'] } },
  test: {
    projects,
    // One temporary root per run, removed at its end (see the file).
    globalSetup: ['./scripts/lib/test-temp-root.mjs'],
    passWithNoTests: false,
    // Most test files wait on the processes they start (servers, the CLI, PostgreSQL), not on the
    // CPU: on a 2-core machine Vitest's default (one worker fewer than the cores) ran every file one
    // after another. Two at least; the tests' deadlines keep margins for a loaded machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
