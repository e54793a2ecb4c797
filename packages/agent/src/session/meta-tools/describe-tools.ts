import { z } from 'zod';
import type { JsonValue } from '@mcp-agent/core';
import type { MetaTool } from '../meta-tool.js';
import { answered } from '../observation.js';
import type { SessionState } from '../session-state.js';

const input = z.strictObject({
  tool_ids: z.array(z.string().max(300)).min(1).max(10).describe('Tool ids from search_tools.'),
  full: z
    .boolean()
    .optional()
    .describe('Show every description and enum in full, past the usual budgets (rarely needed).'),
});

/**
 * `describe_tools`: the deep views of tools the request may use; each one found may then be
 * called in this session. Ids outside the request's servers are not found, like unknown ones.
 */
export function describeTools(state: SessionState): MetaTool<z.infer<typeof input>> {
  return {
    name: 'describe_tools',
    description:
      'Step 2. Read the parameters, output fields and call signature of tools found by search_tools. A tool can only be called (directly or from code) after it was described in this session.',
    input,
    async run({ tool_ids, full }, { ctx }) {
      const { tools, errors } = await state.knowledge.deepView(ctx, tool_ids, {
        full: full === true,
      });
      const added: string[] = [];
      for (const tool of tools) {
        if (state.described.has(tool.tool_id)) continue;
        state.described.add(tool.tool_id);
        added.push(tool.tool_id);
      }
      // Recorded before the answer: the client's next call may reach another copy.
      if (added.length > 0) await state.shared?.described(added).catch(() => undefined);
      return answered(tools.length > 0, {
        tools: tools as unknown as JsonValue,
        errors: errors.map((e) => ({ code: e.code, message: e.message })),
      });
    },
  };
}
