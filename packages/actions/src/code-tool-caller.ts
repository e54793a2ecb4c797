import type { AgentContext } from '@mcp-agent/core';
import type { SandboxRunOptions, SandboxToolReply } from '@mcp-agent/execution';
import type { Dispatcher } from './dispatcher.js';

/**
 * The sandbox's `callTool` for one request: every call from code goes through `dispatchTool`
 * with the caller's context and `caller: 'code'`, so validation, policy (including rules that
 * bar a tool from code), rate limits and tenant scoping apply exactly as to the model's calls.
 */
export function codeToolCaller(
  dispatcher: Dispatcher,
  ctx: AgentContext,
): NonNullable<SandboxRunOptions['callTool']> {
  return async (tool, args, signal): Promise<SandboxToolReply> => {
    const response = await dispatcher.dispatchTool(
      ctx,
      { provider: tool.provider, tool: tool.name },
      args,
      {
        caller: 'code',
        signal,
      },
    );
    return response.ok
      ? { ok: true, value: response.data }
      : { ok: false, error: { code: response.error.code, message: response.error.message } };
  };
}
