import { z } from 'zod';
import type { JsonValue } from '@mcp-agent/core';
import type { MetaTool } from '../meta-tool.js';
import { failed, observed } from '../observation.js';
import type { SessionState } from '../session-state.js';

const input = z.strictObject({
  id: z.string().min(1).max(200).describe('The result id from a cut marker ("obs_…").'),
  path: z
    .string()
    .max(2_000)
    .optional()
    .describe('Where in the result, as the marker says, e.g. entities[3].observations.'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('The first item, key or character to show, as the marker says.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .optional()
    .describe('How many items, keys or characters.'),
});

/**
 * `read_result`: the rest of a result that was cut for the model — the value at a path, or a
 * page from an offset — cut again to the budget with markers that go on from there. Counts as a
 * tool call of the budget (it is the same result, read in parts).
 */
export function readResult(state: SessionState): MetaTool<z.infer<typeof input>> {
  return {
    name: 'read_result',
    description:
      'Read more of a result that was shortened: every cut says {"read_result": {"id", "path", "offset"}} — pass exactly those. Returns that part, itself shortened with further markers if still long.',
    input,
    async run({ id, path, offset, limit }, { ctx }) {
      state.budget?.addToolCalls(1);
      const response = await state.dispatcher.readResult(ctx, id, {
        ...(path === undefined ? {} : { path }),
        ...(offset === undefined ? {} : { offset }),
        ...(limit === undefined ? {} : { limit }),
        images: state.images,
      });
      if (!response.ok) return failed(response.error);
      return observed(
        {
          id,
          ...(path === undefined ? {} : { path }),
          value: response.data as JsonValue,
          ...(response.meta.truncated ? { truncated: true } : {}),
        },
        response.images,
      );
    },
  };
}
