import type { ActionError, AgentContext } from '@mcp-agent/core';
import type { SandboxRunOptions, SandboxToolReply } from '@mcp-agent/execution';
import type { DispatchOptions, Dispatcher } from './dispatcher.js';

/**
 * The sandbox's `callTool` for one request: every call from code goes through `dispatchTool`
 * with the caller's context and `caller: 'code'`, so validation, policy (including rules that
 * bar a tool from code), rate limits and tenant scoping apply exactly as to the model's calls.
 * `onFailure` sees each failure whole (the code gets its code and message only); `onProgress`
 * the progress of every call.
 */
export function codeToolCaller(
  dispatcher: Dispatcher,
  ctx: AgentContext,
  onFailure?: (error: ActionError) => void,
  onProgress?: DispatchOptions['onProgress'],
): NonNullable<SandboxRunOptions['callTool']> {
  return async (tool, args, signal): Promise<SandboxToolReply> => {
    const response = await dispatcher.dispatchTool(
      ctx,
      { server: tool.server, tool: tool.name },
      args,
      {
        caller: 'code',
        signal,
        ...(onProgress === undefined ? {} : { onProgress }),
      },
    );
    // The result's JSON as the dispatcher wrote it to size it: the sandbox sends it as it is.
    if (response.ok)
      return response.json === undefined
        ? { ok: true, value: response.data }
        : { ok: true, value: response.data, json: response.json.text };
    onFailure?.(response.error);
    return { ok: false, error: { code: response.error.code, message: response.error.message } };
  };
}
