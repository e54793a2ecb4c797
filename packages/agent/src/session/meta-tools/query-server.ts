import { z } from 'zod';
import type { MetaTool, MetaToolCall } from '../meta-tool.js';
import type { Observation } from '../observation.js';

const input = z.strictObject({
  server_id: z.string().min(1).max(64).describe('The server id.'),
  query: z.string().min(1).max(4_000),
  context: z.string().max(8_000).optional().describe('Anything the sub-task needs to know.'),
});

/** The input of `query_server`. */
export type QueryServerInput = z.infer<typeof input>;

/** `query_server`: a sub-task for an assistant that sees one server; the agent runs it. */
export function queryServer(
  run: (input: QueryServerInput, call: MetaToolCall) => Promise<Observation>,
): MetaTool<QueryServerInput> {
  return {
    name: 'query_server',
    description:
      "Hand a sub-task to an assistant that works only with one server's tools and answers in words. Use it for a self-contained question about one server.",
    input,
    run,
  };
}
