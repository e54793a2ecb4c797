import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  inSpan,
  instruments,
  markSpanFailed,
  SpanKind,
  tenantAttributes,
  toMcpAgentError,
  type AgentContext,
} from '@mcp-agent/core';

/**
 * One pooled MCP request in a `tools/call <tool>` client span (the OpenTelemetry MCP
 * conventions: `mcp.method.name`, `gen_ai.tool.name`, `error.type`), with the server, the
 * tenant as the operator chose to record it, whether the connection was reused, the outcome and
 * the sizes of the request and the result in bytes — never the arguments or the result. The
 * per-server counters and latency histogram are recorded here too, so every call through the
 * pool counts, whoever made it.
 */
export function tracedToolCall(
  ctx: AgentContext,
  serverId: string,
  toolName: string,
  args: Record<string, unknown>,
  reused: boolean,
  call: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const server = { server: serverId };
  return inSpan(
    `tools/call ${toolName}`,
    () => ({
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
    async (span) => {
      const metrics = instruments();
      metrics.serverAcquisitions.add(1, { ...server, reused: String(reused) });
      // Sizes cost a serialisation: only for a span that is recorded.
      if (span.isRecording()) span.setAttribute('mcp_agent.request.bytes', jsonBytes(args));
      const started = performance.now();
      let outcome = 'error';
      let errorType: string | undefined;
      try {
        const result = await call();
        outcome = result.isError === true ? 'tool_error' : 'ok';
        if (outcome === 'tool_error') {
          errorType = 'tool_error';
          markSpanFailed(span, errorType);
        }
        if (span.isRecording()) span.setAttribute('mcp_agent.response.bytes', jsonBytes(result));
        return result;
      } catch (thrown) {
        errorType = errorTypeOf(thrown);
        markSpanFailed(span, errorType);
        throw thrown;
      } finally {
        span.setAttribute('mcp_agent.outcome', outcome);
        metrics.serverCalls.add(1, { ...server, outcome });
        metrics.serverDuration.record((performance.now() - started) / 1000, {
          ...server,
          outcome,
        });
        if (errorType !== undefined)
          metrics.serverErrors.add(1, { ...server, 'error.type': errorType });
      }
    },
  );
}

// A JSON-RPC error keeps its numeric code (as the MCP conventions say); anything else gets ours.
function errorTypeOf(thrown: unknown): string {
  const code = (thrown as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? String(code) : toMcpAgentError(thrown).code;
}

function jsonBytes(value: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
  } catch {
    return -1;
  }
}
