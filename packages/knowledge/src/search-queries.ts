import { InvalidArgumentsError } from '@mcp-agent/core';

/** Most queries in one `Knowledge.searchMany`. */
export const MAX_SEARCH_QUERIES = 10;
/** Longest query, in characters: a search is a short description of one need. */
export const MAX_QUERY_LENGTH = 2_000;

/** Queries as the caller gave them, checked: a clear error names what is wrong and how to fix it. */
export function checkQueries(queries: readonly unknown[]): string[] {
  if (!Array.isArray(queries) || queries.length === 0) {
    throw new InvalidArgumentsError(
      'No search query: pass one or more short descriptions of what you need, for example ["create an issue", "send an email"].',
    );
  }
  if (queries.length > MAX_SEARCH_QUERIES) {
    throw new InvalidArgumentsError(
      `${queries.length} search queries in one call; at most ${MAX_SEARCH_QUERIES}. Search again for the rest.`,
    );
  }
  return queries.map((query, i) => {
    if (typeof query !== 'string' || query.trim() === '') {
      throw new InvalidArgumentsError(
        `Search query ${i + 1} is empty: describe the tool you need, for example "create an issue".`,
      );
    }
    if (query.length > MAX_QUERY_LENGTH) {
      throw new InvalidArgumentsError(
        `Search query ${i + 1} is ${query.length} characters long; keep each under ${MAX_QUERY_LENGTH}, one need per query.`,
      );
    }
    return query.trim();
  });
}
