import { z } from 'zod';
import type { MetaTool } from '../meta-tool.js';
import { observed } from '../observation.js';
import type { SessionState } from '../session-state.js';

const input = z.strictObject({
  query: z.string().trim().min(1).max(2_000).describe('What the tool should do.'),
  limit: z.number().int().min(1).max(20).optional().describe('Results to return (default 5).'),
  providers: z.array(z.string().max(64)).max(50).optional().describe('Only these servers.'),
});

/** `search_tools`: ranked slim hits over the servers this request may use. */
export function searchTools(state: SessionState): MetaTool<z.infer<typeof input>> {
  return {
    name: 'search_tools',
    description:
      'Step 1. Search the tools of the connected servers by what you want to do, in plain words ("create a GitHub issue"). Returns tool ids with one-line descriptions. Search before describing or calling anything.',
    input,
    async run({ query, limit, providers }, { ctx }) {
      const results = await state.knowledge.search(ctx, query, {
        limit: limit ?? 5,
        ...(providers === undefined ? {} : { providers }),
      });
      const slim = results.map((r) => ({
        tool_id: r.tool_id,
        description: r.description,
        score: r.score,
      }));
      return observed(
        slim.length === 0
          ? { results: slim, hint: 'Nothing matched; try other words.' }
          : { results: slim },
      );
    },
  };
}
