import { context, propagation, SpanKind, type Span } from '@opentelemetry/api';
import { inSpan, instruments, markSpanFailed, tenantAttributes } from '@mcp-agent/core';
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { GATEWAY_USER } from '../telemetry/mcp-trace-log.js';

const META_TOOLS = new Set([
  'search_tools',
  'describe_tools',
  'call_tool',
  'run_code',
  'execute_task',
  'read_result',
  'read_resource',
]);

/** What one gateway request was: its MCP method, the meta-tool, its arguments and `_meta`. */
export interface GatewayRequest {
  readonly userId: string;
  readonly method: 'tools/call' | 'tools/list';
  readonly tool?: string;
  readonly arguments?: Record<string, unknown>;
  /** The request's `_meta`: a client may send its trace context there (`traceparent`). */
  readonly meta?: Record<string, unknown>;
}

/**
 * Runs one gateway request in a server span, `tools/call <meta-tool>` (the MCP conventions),
 * continuing the client's trace when its `_meta` carries one, with the user in the trace context
 * (for the web UI's MCP trace log, never on a span) and counts and latency per method and
 * meta-tool. `run` answers whether the request succeeded; `responseBytes` sizes its answer for
 * the span (default: written out as JSON, only while the span records).
 */
export function traceGatewayRequest<T extends object>(
  request: GatewayRequest,
  run: () => Promise<T>,
  responseBytes: (result: T) => number = bytes,
): Promise<T> {
  // A client's own name for a tool it made up is not a label: it would grow without bound.
  const tool =
    request.tool === undefined
      ? undefined
      : META_TOOLS.has(request.tool)
        ? request.tool
        : 'unknown';
  const toolId = request.arguments?.tool_id;
  return inSpan(
    tool === undefined ? request.method : `${request.method} ${tool}`,
    () => ({
      kind: SpanKind.SERVER,
      attributes: {
        'mcp_agent.gateway': true,
        'mcp.method.name': request.method,
        ...(tool === undefined ? {} : { 'gen_ai.tool.name': tool }),
        ...(typeof toolId === 'string' ? { 'mcp_agent.tool_id': toolId.slice(0, 300) } : {}),
        ...tenantAttributes(request.userId),
      },
      // The client's trace context, and the user in it (for spans alone: read only when made).
      context: propagation
        .extract(context.active(), request.meta ?? {})
        .setValue(GATEWAY_USER, request.userId),
    }),
    async (span: Span) => {
      const started = performance.now();
      let outcome = 'error';
      try {
        if (span.isRecording() && request.arguments !== undefined)
          span.setAttribute('mcp_agent.request.bytes', bytes(request.arguments));
        const result = await run();
        const isError = (result as { isError?: unknown }).isError === true;
        outcome = isError ? 'tool_error' : 'ok';
        if (isError) markSpanFailed(span, 'tool_error');
        if (span.isRecording())
          span.setAttribute('mcp_agent.response.bytes', responseBytes(result));
        return result;
      } finally {
        const labels = {
          'mcp.method.name': request.method,
          ...(tool === undefined ? {} : { 'gen_ai.tool.name': tool }),
          outcome,
        };
        const metrics = instruments();
        metrics.gatewayRequests.add(1, labels);
        metrics.gatewayDuration.record((performance.now() - started) / 1000, labels);
      }
    },
  );
}

function bytes(value: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
  } catch {
    return -1;
  }
}

/**
 * A tool call's answer with its size: UTF-8 bytes of its content (the text and the images' data)
 * as the gateway wrote it, counted where it was written instead of writing it out again.
 */
export interface MeasuredAnswer {
  readonly result: CallToolResult;
  readonly bytes: number;
}

/** A `tools/call` handler of the gateway, traced by {@link traceGatewayRequest}. */
export function tracedToolCall<Extra>(
  userId: string,
  handler: (request: CallToolRequest, extra: Extra) => Promise<MeasuredAnswer>,
): (request: CallToolRequest, extra: Extra) => Promise<CallToolResult> {
  return (request, extra) => {
    let size = -1;
    return traceGatewayRequest(
      {
        userId,
        method: 'tools/call',
        tool: request.params.name,
        ...(request.params.arguments === undefined ? {} : { arguments: request.params.arguments }),
        ...(request.params._meta === undefined ? {} : { meta: request.params._meta }),
      },
      async () => {
        const answer = await handler(request, extra);
        size = answer.bytes;
        return answer.result;
      },
      () => size,
    );
  };
}
