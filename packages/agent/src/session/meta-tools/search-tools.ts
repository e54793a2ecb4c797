import { z } from 'zod';
import type { JsonValue } from '@mcp-agent/core';
import { BROWSE_PAGE_SIZE } from '@mcp-agent/knowledge';
import type { MetaTool } from '../meta-tool.js';
import { observed } from '../observation.js';
import type { SessionState } from '../session-state.js';

/** Most queries in one search_tools call: a task's steps, each searched on its own. */
export const MAX_SEARCH_TOOLS_QUERIES = 8;
// Most hits one call lists over all its queries (queries × limit): the answer stays small.
const MAX_HITS = 40;
const DEFAULT_LIMIT = 5;

const query = z.string().trim().min(1).max(2_000);

const input = z
  .strictObject({
    query: query.optional().describe('One search: what the tool should do.'),
    queries: z
      .array(query)
      .min(1)
      .max(MAX_SEARCH_TOOLS_QUERIES)
      .optional()
      .describe(`Several short searches, one per step (at most ${MAX_SEARCH_TOOLS_QUERIES}).`),
    limit: z
      .number()
      .int()
      .min(1)
      .max(20)
      .optional()
      .describe(`Results per query (default ${DEFAULT_LIMIT}).`),
    servers: z
      .array(z.string().max(64))
      .min(1)
      .max(50)
      .optional()
      .describe('Only these servers; alone: browse them.'),
    cursor: z.string().max(2_000).optional(),
  })
  .superRefine((value, issues) => {
    const searching = value.query !== undefined || value.queries !== undefined;
    if (!searching) {
      if (value.servers === undefined) {
        issues.addIssue({
          code: 'custom',
          path: ['queries'],
          message:
            'give "query" (one search) or "queries" (several), or "servers" without a query to browse their tools',
        });
      } else if (value.limit !== undefined) {
        issues.addIssue({
          code: 'custom',
          path: ['limit'],
          message: `"limit" counts results per query; a browse lists ${BROWSE_PAGE_SIZE} tools a page: leave it out and continue with "cursor"`,
        });
      }
      return;
    }
    if (value.cursor !== undefined) {
      issues.addIssue({
        code: 'custom',
        path: ['cursor'],
        message:
          '"cursor" continues a browse (servers without a query): leave it out of a search, or drop the query to go on browsing',
      });
      return;
    }
    if (value.query !== undefined && value.queries !== undefined) {
      issues.addIssue({
        code: 'custom',
        path: ['queries'],
        message: 'give "query" or "queries", not both: put every search in "queries"',
      });
      return;
    }
    const count = value.queries?.length ?? 1;
    const limit = value.limit ?? DEFAULT_LIMIT;
    if (count * limit > MAX_HITS) {
      issues.addIssue({
        code: 'custom',
        path: ['limit'],
        message: `${count} queries × ${limit} results is over ${MAX_HITS}: ask for at most ${Math.floor(MAX_HITS / count)} results per query, or split the searches over two calls`,
      });
    }
  });

/**
 * `search_tools`: one or several searches over the servers this request may use, each query
 * with its own top hits and their relevance, every tool described once under its server, the
 * servers that best match it as a whole, and queries nothing connected answers marked
 * `no_good_match` (Knowledge.searchMany's answer). With `servers` and no query it browses those
 * servers instead: every tool's id and first sentence, a page at a time (Knowledge.browse).
 */
export function searchTools(state: SessionState): MetaTool<z.infer<typeof input>> {
  return {
    name: 'search_tools',
    description:
      'Step 1. Find tools of the connected servers by what you want to do, in plain words. Split a task of several steps into short searches in one call: {"queries": ["list open issues", "post to slack"]}, or one {"query": "…"}. Each query gets tool ids with relevance 0–1; "no_good_match" means no tool says it in those words: read the descriptions of the closest tools and rephrase before concluding. Browse a server (servers, no query) on a miss or a need that belongs to one server. Search before describing or calling.',
    input,
    async run({ query, queries, limit, servers, cursor }, { ctx }) {
      if (query === undefined && queries === undefined && servers !== undefined) {
        const page = await state.knowledge.browse(
          ctx,
          servers,
          cursor === undefined ? {} : { cursor },
        );
        return observed(page as unknown as JsonValue);
      }
      const answer = await state.knowledge.searchMany(ctx, queries ?? query ?? [], {
        limit: limit ?? DEFAULT_LIMIT,
        ...(servers === undefined ? {} : { servers }),
      });
      return observed(answer as unknown as JsonValue);
    },
  };
}
