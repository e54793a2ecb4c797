import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  afterTurn,
  inSpan,
  instruments,
  isTelemetryObserved,
  jsonBytes,
  markSpanFailed,
  mcpTrafficObserver,
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
 * per-server counters and latency histogram are recorded too, and the process's MCP traffic
 * observer told of the call, so every call through the pool counts, whoever made it: after the
 * turn that answered it (`afterTurn`), so that none of it delays the answer. Where nothing reads
 * any of it (`isTelemetryObserved`), the call runs as it is.
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
      // Sizes cost a serialisation: on the span only while it records, and written once when
      // the traffic observer is told of them too.
      const recording = span.isRecording();
      const requestBytes = recording ? jsonBytes(args) : undefined;
      let responseBytes: number | undefined;
      if (requestBytes !== undefined) span.setAttribute('mcp_agent.request.bytes', requestBytes);
      const at = Date.now();
      const started = performance.now();
      let outcome = 'error';
      let errorType: string | undefined;
      let answered: CallToolResult | undefined;
      try {
        const result = await call();
        answered = result;
        outcome = result.isError === true ? 'tool_error' : 'ok';
        if (outcome === 'tool_error') {
          errorType = 'tool_error';
          markSpanFailed(span, errorType);
        }
        if (recording) {
          responseBytes = jsonBytes(result);
          span.setAttribute('mcp_agent.response.bytes', responseBytes);
        }
        return result;
      } catch (thrown) {
        errorType = errorTypeOf(thrown);
        markSpanFailed(span, errorType);
        throw thrown;
      } finally {
        const durationMs = performance.now() - started;
        span.setAttribute('mcp_agent.outcome', outcome);
        // Counted once the answer is on its way (none of it changes the answer), when anything
        // counts it.
        const metrics = instruments();
        if (metrics.recording || mcpTrafficObserver() !== undefined)
          afterTurn(() => {
            const server = { server: serverId };
            metrics.serverAcquisitions.add(1, { ...server, reused: String(reused) });
            metrics.serverCalls.add(1, { ...server, outcome });
            metrics.serverDuration.record(durationMs / 1000, { ...server, outcome });
            if (errorType !== undefined)
              metrics.serverErrors.add(1, { ...server, 'error.type': errorType });
            mcpTrafficObserver()?.exchanged({
              direction: 'out',
              userId: ctx.userId,
              requestId: ctx.requestId,
              method: 'tools/call',
              name: toolName,
              server: serverId,
              at,
              durationMs,
              outcome: errorType === undefined ? 'ok' : 'error',
              ...(errorType === undefined ? {} : { errorType }),
              requestBytes: requestBytes ?? jsonBytes(args),
              ...(answered === undefined
                ? {}
                : { responseBytes: responseBytes ?? jsonBytes(answered) }),
            });
          });
      }
    },
  );
}

// A JSON-RPC error keeps its numeric code (as the MCP conventions say); anything else gets ours.
function errorTypeOf(thrown: unknown): string {
  const code = (thrown as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? String(code) : toMcpAgentError(thrown).code;
}
