import { z } from 'zod';
import {
  ErrorCode,
  parseToolId,
  SandboxError,
  type ActionError,
  type ToolId,
} from '@mcp-agent/core';
import { codeToolCaller } from '@mcp-agent/actions';
import type { MetaTool } from '../meta-tool.js';
import { failed, observed } from '../observation.js';
import type { SessionState } from '../session-state.js';
import { loadShared } from '../shared-described.js';

const input = z.strictObject({
  code: z.string().min(1).max(100_000),
  language: z.enum(['javascript', 'typescript']).optional(),
});

// Per run, whatever the budget: the sandbox's own caps on calls and time.
const MAX_CALLS_PER_RUN = 50;
const MAX_RUN_MS = 30_000;

/** `run_code`: a script over the described tools, each call through the dispatcher. */
export function runCode(state: SessionState): MetaTool<z.infer<typeof input>> {
  return {
    name: 'run_code',
    description:
      'Step 3b. Run JavaScript or TypeScript that calls several described tools and returns only what matters: an async function body; "return" gives the result. Call `await tools.<server>.<tool>(args)`; a name with characters other than letters, digits, _ and $ works in brackets (tools["my-server"]["get-item"]) or with those characters as _. Each tool returns its whole result. No network, timers or modules; console.log is captured.',
    input,
    async run({ code, language }, { ctx, onProgress }) {
      const { sandbox, budget } = state;
      if (sandbox === undefined)
        return failed(new SandboxError('run_code is not available: no sandbox is configured.'));
      // The script may call tools described on another copy of the session: it sees them too.
      if (state.shared !== undefined) await loadShared(state.shared, state.described);
      const tools = [...state.described].map((id) => {
        const parsed = parseToolId(id);
        return { server: parsed.serverId, name: parsed.toolName };
      });
      let quota: ActionError | undefined;
      const callTool = codeToolCaller(
        state.dispatcher,
        ctx,
        (error) => {
          if (error.code === ErrorCode.QuotaExceeded) quota ??= error;
        },
        onProgress,
      );
      const used: ToolId[] = [];
      const result = await sandbox.run(code, {
        tools,
        language: language ?? 'javascript',
        signal: ctx.signal,
        limits: {
          maxToolCalls: Math.min(MAX_CALLS_PER_RUN, budget?.remainingToolCalls ?? Infinity),
          deadlineMs: Math.min(MAX_RUN_MS, budget?.remainingMs ?? Infinity),
          // The whole value, up to the operator's cap on one result: the model gets it shaped
          // below (a structural cut with a read_result reference), as a tool's result.
          maxResultChars: state.dispatcher.maxResultBytes,
        },
        callTool: async (tool, args, signal) => {
          const reply = await callTool(tool, args, signal);
          if (reply.ok) used.push(`${tool.server}.${tool.name}` as ToolId);
          return reply;
        },
      });
      budget?.addToolCalls(result.toolCalls);
      for (const id of used) state.used(id);
      ctx.signal.throwIfAborted();
      // A quota reached by the script's calls is the run's outcome, as one reached by call_tool
      // is that call's: the agent loop decides that it ends the task.
      if (quota !== undefined) return failed(quota);
      if (!result.ok)
        return failed(
          { code: ErrorCode.Sandbox, message: result.error.message },
          { kind: result.error.kind, logs: [...result.logs] },
        );
      // Code had whole results; only what it returns is shaped for the model, with the same
      // budget and read_result pointers as a tool's result.
      const shaped = state.dispatcher.observe(ctx, result.value, {
        source: 'run_code',
        images: state.images,
      });
      return observed(
        {
          result: shaped.data,
          logs: [...result.logs],
          tool_calls: result.toolCalls,
          ...(shaped.truncated
            ? { truncated: true, observation_id: shaped.observationId ?? null }
            : {}),
        },
        shaped.images,
        { key: 'result', json: shaped.json },
      );
    },
  };
}
