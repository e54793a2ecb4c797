import { it } from 'vitest';
import { testDialects } from '../../testing/index.js';

const { dialects, skipped } = testDialects();

if (skipped !== undefined && process.env.CI) {
  // CI starts PostgreSQL (.ci/run); a CI run without it must fail, not pass on half the suite.
  throw new Error(`CI must run the PostgreSQL half of the registry contract suite. ${skipped}`);
}

/** The dialects every contract test loops over. */
export { dialects };

/**
 * The dialects, each with the label its tenant and secret suites carry: their PostgreSQL half
 * is TEN-10 in the catalogue (the same suites, the same results, on PostgreSQL).
 */
export const tenantDialects = dialects.map((dialect) => ({
  ...dialect,
  label: dialect.name === 'postgres' ? 'postgres (TEN-10)' : dialect.name,
}));

/** Registers a visibly skipped test that says why PostgreSQL did not run, when it did not. */
export function reportSkippedPostgres(): void {
  if (skipped !== undefined) it.skip(skipped, () => undefined);
}
