import { it } from 'vitest';
import { testDialects } from '../testing/index.js';

const { dialects, skipped } = testDialects();

if (skipped !== undefined && process.env.CI) {
  // CI starts PostgreSQL (.ci/run); a CI run without it must fail, not pass on half the suite.
  throw new Error(`CI must run the PostgreSQL half of the registry contract suite. ${skipped}`);
}

/** The dialects every contract test loops over. */
export { dialects };

/** Registers a visibly skipped test that says why PostgreSQL did not run, when it did not. */
export function reportSkippedPostgres(): void {
  if (skipped !== undefined) it.skip(skipped, () => undefined);
}
