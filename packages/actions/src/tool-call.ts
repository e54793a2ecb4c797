import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentContext, ToolId, ToolSpec } from '@mcp-agent/core';

/** Who asked for the call: the model directly, or code running in the sandbox. */
export type Caller = 'model' | 'code';

/**
 * Every operation a user can have done on one of their servers, named by its MCP method. Each
 * passes the one middleware chain (policy, limits, quotas, usage, tracing, audit); a new one is
 * added here, and the gate test fails until the pool's method for it is routed through it.
 */
export const SERVER_OPERATIONS = ['tools/call', 'resources/list', 'resources/read'] as const;

/** One of {@link SERVER_OPERATIONS}. */
export type ServerOperation = (typeof SERVER_OPERATIONS)[number];

/**
 * One validated operation on its way through the middleware chain to the server: a tool call,
 * or another operation on the server (then `toolName` is its method, `toolId` is
 * `<server>.<method>`, e.g. `github.resources/read`, so `github.*` rules cover it, and `spec`
 * describes it as a read-only operation).
 */
export interface ToolCall {
  /** What is asked of the server; a tool call when absent. */
  readonly operation?: ServerOperation;
  /** The tool's id, `<server>.<tool>`. */
  readonly toolId: ToolId;
  /** The server it runs on. */
  readonly serverId: string;
  /** The tool's name on that server. */
  readonly toolName: string;
  /** The arguments, mapped and validated against the input schema. */
  readonly arguments: Record<string, unknown>;
  /** The tool as the catalog lists it: description, schemas, annotations. */
  readonly spec: ToolSpec;
  /** The hash of the tool as listed now (registry catalog); empty for other operations. */
  readonly contentHash: string;
  /** Who asked: the model or code in the sandbox. */
  readonly caller: Caller;
  /** Aborted when the call is cancelled or its task ends. */
  readonly signal: AbortSignal;
  /** The call's deadline, when the caller set one. */
  readonly timeoutMs: number | undefined;
  /** Progress notifications of the server, forwarded to whoever asked. */
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** The next step of the chain. */
export type Next = (call: ToolCall) => Promise<CallToolResult>;

/**
 * A middleware link: logging, metrics, policy, rate limits and holds are links, not branches in
 * one function. A link denies by throwing an mcp-agent error; the dispatcher turns it into an
 * `ActionResponse`.
 */
export type DispatchLink = (
  ctx: AgentContext,
  call: ToolCall,
  next: Next,
) => Promise<CallToolResult>;

/** Composes links around the terminal step, first link outermost. */
export function chain(
  links: readonly DispatchLink[],
  terminal: (ctx: AgentContext, call: ToolCall) => Promise<CallToolResult>,
) {
  return (ctx: AgentContext, call: ToolCall): Promise<CallToolResult> => {
    const run = (index: number, current: ToolCall): Promise<CallToolResult> => {
      const link = links[index];
      return link === undefined
        ? terminal(ctx, current)
        : link(ctx, current, (next) => run(index + 1, next));
    };
    return run(0, call);
  };
}
