import { z } from 'zod';
import { InvalidArgumentsError, isJsonObject, type JsonValue } from '@mcp-agent/core';
import type { MetaTool, MetaToolCall } from '../meta-tool.js';
import { failed, observed, type Observation } from '../observation.js';
import type { SessionState } from '../session-state.js';
import { loadShared } from '../shared-described.js';
import { noteResourceLinks } from './read-resource.js';

const input = z.strictObject({
  tool_id: z.string().min(1).max(300).describe('A described tool id, "<server>.<tool>".'),
  // Kept exactly as sent (a custom check, not a copy): the dispatcher validates it against the
  // tool's own schema.
  arguments: z
    .custom<Record<string, unknown>>(
      (value) => value !== null && typeof value === 'object' && !Array.isArray(value),
      { message: 'expected an object of tool arguments' },
    )
    .meta({ type: 'object', description: 'The tool arguments.' }),
});

// What `input` takes as it is: exactly its two keys, a tool id of 1 to 300 characters and an
// object of arguments. The per-call path skips the schema parse for it.
function isPlainCall(value: unknown): value is z.infer<typeof input> {
  if (!isJsonObject(value) || Object.keys(value).length !== 2) return false;
  const { tool_id: toolId, arguments: args } = value;
  return (
    typeof toolId === 'string' && toolId.length >= 1 && toolId.length <= 300 && isJsonObject(args)
  );
}

/** The refusal of a call to a tool this session has not described, everywhere the same. */
export function describeFirst(toolId: string): InvalidArgumentsError {
  return new InvalidArgumentsError(
    `Describe ${toolId.slice(0, 200)} with describe_tools before calling it (search_tools finds tool ids).`,
    { details: { toolId: toolId.slice(0, 200) } },
  );
}

/** `call_tool`: one validated call of a described tool, through the dispatcher. */
export function callTool(state: SessionState): MetaTool<z.infer<typeof input>> {
  return {
    name: 'call_tool',
    description:
      'Step 3a. Call one described tool with arguments that match its parameters. Returns its result; a long result is shortened, and says how to read the rest with read_result.',
    input,
    accepts: isPlainCall,
    run({ tool_id, arguments: args }, call) {
      if (state.described.has(tool_id)) return dispatch(state, tool_id, args, call);
      const { shared } = state;
      if (shared === undefined) return Promise.resolve(failed(describeFirst(tool_id)));
      // Described on another copy of the session, perhaps: read what it described, once.
      return loadShared(shared, state.described).then(() =>
        state.described.has(tool_id)
          ? dispatch(state, tool_id, args, call)
          : failed(describeFirst(tool_id)),
      );
    },
  };
}

// Not async: the dispatcher's answer passes one handler here.
function dispatch(
  state: SessionState,
  tool_id: string,
  args: Record<string, unknown>,
  { ctx, onProgress }: MetaToolCall,
): Promise<Observation> {
  // A spent budget throws: the session ends the task on it.
  state.budget?.addToolCalls(1);
  const dispatched = state.dispatcher.dispatchTool(ctx, tool_id, args, {
    caller: 'model',
    signal: ctx.signal,
    images: state.images,
    ...(onProgress === undefined ? {} : { onProgress }),
  });
  return dispatched.then((response) => {
    // A quota too stays a value: the agent loop decides that it ends the task.
    if (!response.ok) return failed(response.error);
    state.used(response.meta.toolId);
    noteResourceLinks(state, response.meta.toolId, response.data as JsonValue);
    return observed(
      {
        // Provenance: the result is data from this tool, whatever it says (POI-06).
        tool_id: response.meta.toolId,
        result: response.data as JsonValue,
        ...(response.meta.truncated
          ? { truncated: true, observation_id: response.meta.observationId ?? null }
          : {}),
      },
      response.images,
      // The result as the dispatcher wrote it when it sized it, when the envelope kept it
      // whole.
      { key: 'result', json: response.json },
    );
  });
}
