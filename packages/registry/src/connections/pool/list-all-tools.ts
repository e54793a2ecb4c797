import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

// tools/list with a lenient result schema: the SDK's own rejects the whole list when one tool
// is malformed; the catalog rejects bad tools one by one instead and keeps the rest.
const LenientToolList = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

/** Every page of tools/list (at most 100 pages), each tool as the server sent it. */
export async function listAllTools(client: Client, timeoutMs: number): Promise<Tool[]> {
  const tools: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const result = await client.request(
      { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
      LenientToolList,
      { timeout: timeoutMs },
    );
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return tools as Tool[];
}
