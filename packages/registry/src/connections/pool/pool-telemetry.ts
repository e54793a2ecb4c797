import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  instruments,
  isTelemetryObserved,
  SpanKind,
  tenantAttributes,
  toMcpAgentError,
  tracedCall,
  type AgentContext,
} from '@mcp-agent/core';

/**
 * One pooled MCP request in a `tools/call <tool>` client span (the OpenTelemetry MCP
 * conventions: `mcp.method.name`, `gen_ai.tool.name`, `error.type`), with the server, the
 * tenant as the operator chose to record it, whether the connection was reused, the outcome and
 * the sizes of the request and the result in bytes — never the arguments or the result. The
 * per-server counters and latency histogram are recorded too, and the process's MCP traffic
 * observer told of the call, so every call through the pool counts, whoever made it: after the
 * turn that answered it (core's `tracedCall`, as the gateway's requests), so that none of it
 * delays the answer. A JSON-RPC error's code is the span's `error.type` and the observer's alike.
 * Where nothing reads any of it (`isTelemetryObserved`), the call runs as it is.
 */
export function tracedToolCall(
  ctx: AgentContext,
  serverId: string,
  toolName: string,
  args: Record<string, unknown>,
  reused: boolean,
  call: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  if (!isTelemetryObserved()) return call();
  return tracedCall(
    {
      name: `tools/call ${toolName}`,
      start: () => ({
        kind: SpanKind.CLIENT,
        // The request to the server: nothing under it makes a span.
        leaf: true,
        attributes: {
          'mcp.method.name': 'tools/call',
          'gen_ai.tool.name': toolName,
          'mcp.server': serverId,
          'mcp_agent.connection.reused': reused,
          ...tenantAttributes(ctx.userId),
        },
      }),
      arguments: args,
      errorType: errorTypeOf,
      exchange: () => ({
        direction: 'out',
        userId: ctx.userId,
        requestId: ctx.requestId,
        method: 'tools/call',
        name: toolName,
        server: serverId,
      }),
      count: ({ outcome, errorType, durationMs }) => {
        const metrics = instruments();
        const server = { server: serverId };
        metrics.serverAcquisitions.add(1, { ...server, reused: String(reused) });
        metrics.serverCalls.add(1, { ...server, outcome });
        metrics.serverDuration.record(durationMs / 1000, { ...server, outcome });
        if (errorType !== undefined)
          metrics.serverErrors.add(1, { ...server, 'error.type': errorType });
      },
    },
    call,
  );
}

// A JSON-RPC error keeps its numeric code (as the MCP conventions say); anything else gets ours.
function errorTypeOf(thrown: unknown): string {
  const code = (thrown as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? String(code) : toMcpAgentError(thrown).code;
}
