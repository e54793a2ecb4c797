import { z } from 'zod';
import { InvalidArgumentsError, parseToolId, type JsonValue } from '@mcp-agent/core';
import type { MetaTool } from '../meta-tool.js';
import { failed, observed } from '../observation.js';
import type { SessionState } from '../session-state.js';

const input = z.strictObject({
  uri: z.string().min(1).max(2_000).describe("e.g. a resource_link's uri"),
  server: z.string().min(1).max(64).optional().describe('Server id; optional for a linked uri.'),
});

// Links remembered per session: enough for any task, bounded for a long gateway session.
const MAX_LINKS = 1_000;

/**
 * Notes the `resource_link`s in a tool's result (`{type: "resource_link", uri}` anywhere in it)
 * as resources of the tool's server, so that `read_resource` follows them by URI alone and
 * refuses to read them from another server.
 */
export function noteResourceLinks(state: SessionState, toolId: string, value: JsonValue): void {
  const server = parseToolId(toolId).serverId;
  const stack: unknown[] = [value];
  let seen = 0;
  while (stack.length > 0 && seen++ < 10_000) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    const record = node as Record<string, unknown>;
    if (record.type === 'resource_link' && typeof record.uri === 'string') {
      state.links.delete(record.uri);
      state.links.set(record.uri, server);
      if (state.links.size > MAX_LINKS)
        state.links.delete(state.links.keys().next().value as string);
    }
    for (const child of Array.isArray(node) ? node : Object.values(record)) stack.push(child);
  }
}

/**
 * `read_resource`: one resource of one of the user's servers — a `resource_link` a result gave,
 * or a URI the server lists — through the same envelope as a tool's result (cuts with
 * `read_result` pointers; images shown). Counts as a tool call of the budget.
 */
export function readResource(state: SessionState): MetaTool<z.infer<typeof input>> {
  return {
    name: 'read_resource',
    description:
      'Read a resource of a connected server, e.g. the uri of a resource_link in a tool result. Long contents are shortened as tool results are.',
    input,
    async run({ uri, server }, { ctx }) {
      const linked = state.links.get(uri);
      if (server !== undefined && linked !== undefined && linked !== server)
        return failed(
          new InvalidArgumentsError(
            `${uri.slice(0, 200)} was linked by server "${linked}", not "${server}": read it with server "${linked}" (or without naming a server).`,
            { details: { uri: uri.slice(0, 200), server, linkedBy: linked } },
          ),
        );
      const from = server ?? linked;
      if (from === undefined)
        return failed(
          new InvalidArgumentsError(
            `No result of this session linked ${uri.slice(0, 200)}: name the server it is on (read_resource {"server": "<id>", "uri": "…"}).`,
          ),
        );
      state.budget?.addToolCalls(1);
      const response = await state.dispatcher.readResource(ctx, from, uri, {
        caller: 'model',
        signal: ctx.signal,
        images: state.images,
      });
      if (!response.ok) return failed(response.error);
      return observed(
        {
          server: from,
          uri,
          contents: response.data as JsonValue,
          ...(response.meta.truncated
            ? { truncated: true, observation_id: response.meta.observationId ?? null }
            : {}),
        },
        response.images,
        { key: 'contents', json: response.json },
      );
    },
  };
}
