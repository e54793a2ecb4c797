import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  NotReadyError,
  promised,
  type AgentContext,
  type ToolId,
  type ToolSpec,
} from '@mcp-agent/core';
import type { ConnectionPool, ResourceListing } from '@mcp-agent/registry';
import type { ServerOperation, ToolCall } from './tool-call.js';

/** What the chain's last step needs of the connection pool: its user-facing operations. */
export type OperationPool = Pick<ConnectionPool, 'callTool'> &
  Partial<Pick<ConnectionPool, 'listResources' | 'readResource'>>;

/**
 * The pool method each operation reaches, and nothing else reaches a server for a user: the
 * gate test checks that every user-facing method of the pool is named here.
 */
export const POOL_METHOD_OF: Readonly<Record<ServerOperation, keyof OperationPool>> = {
  'tools/call': 'callTool',
  'resources/list': 'listResources',
  'resources/read': 'readResource',
};

/**
 * The call that carries a non-tool operation through the chain: `<server>.<method>` as its id,
 * a read-only spec, its arguments (`{uri}` for a read).
 */
export function operationCall(
  operation: Exclude<ServerOperation, 'tools/call'>,
  serverId: string,
  args: Record<string, unknown>,
  options: Pick<ToolCall, 'caller' | 'signal'>,
): ToolCall {
  const toolId = `${serverId}.${operation}` as ToolId;
  const spec: ToolSpec = {
    id: toolId,
    serverId,
    name: operation,
    description: OPERATION_DESCRIPTIONS[operation],
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  };
  return {
    operation,
    toolId,
    serverId,
    toolName: operation,
    arguments: args,
    spec,
    contentHash: '',
    caller: options.caller,
    signal: options.signal,
    timeoutMs: undefined,
  };
}

const OPERATION_DESCRIPTIONS: Readonly<Record<Exclude<ServerOperation, 'tools/call'>, string>> = {
  'resources/list': "Lists the server's resources and resource templates.",
  'resources/read': 'Reads one resource of the server.',
};

/**
 * The chain's last step: the operation on the tenant's pooled session. Every answer comes back
 * as a tool result, so every link handles every operation alike: a read's contents as embedded
 * resources, a listing as structured content.
 */
export function reachServer(
  pool: OperationPool,
  ctx: AgentContext,
  call: ToolCall,
): Promise<CallToolResult> {
  const operation = call.operation ?? 'tools/call';
  if (operation !== 'tools/call') return reachOther(pool, ctx, call, operation);
  // The pool's own promise: no frame here, so no resumption of its own on every answer.
  return promised(() =>
    pool.callTool(ctx, call.serverId, call.toolName, call.arguments, {
      signal: call.signal,
      ...(call.timeoutMs === undefined ? {} : { timeoutMs: call.timeoutMs }),
      ...(call.onProgress === undefined ? {} : { onProgress: call.onProgress }),
      // A tool that runs only as an MCP task is called as one (the SDK's task support).
      ...(call.spec.taskSupport === 'required' ? { task: true } : {}),
    }),
  );
}

async function reachOther(
  pool: OperationPool,
  ctx: AgentContext,
  call: ToolCall,
  operation: Exclude<ServerOperation, 'tools/call'>,
): Promise<CallToolResult> {
  switch (operation) {
    case 'resources/list': {
      if (pool.listResources === undefined) throw noResources();
      const listing: ResourceListing = await pool.listResources(ctx, call.serverId, {
        signal: call.signal,
      });
      return { content: [], structuredContent: listing as unknown as Record<string, unknown> };
    }
    case 'resources/read': {
      if (pool.readResource === undefined) throw noResources();
      const result = await pool.readResource(ctx, call.serverId, String(call.arguments.uri), {
        signal: call.signal,
      });
      return {
        content: result.contents.map((resource) => ({ type: 'resource' as const, resource })),
      };
    }
  }
}

function noResources(): NotReadyError {
  return new NotReadyError('Resources cannot be read here: the connection pool offers no reads.');
}
