import { randomUUID } from 'node:crypto';
import { context, propagation, SpanKind, type Span } from '@opentelemetry/api';
import {
  afterTurn,
  inSpan,
  instruments,
  isTelemetryObserved,
  jsonBytes,
  markSpanFailed,
  mcpTrafficObserver,
  tenantAttributes,
  toMcpAgentError,
} from '@mcp-agent/core';
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';

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
 * continuing the client's trace when its `_meta` carries one, with counts and latency per method
 * and meta-tool, and tells the process's MCP traffic observer of it (see `observeMcpTraffic`);
 * those two after the turn that answered it (`afterTurn`), so that neither delays the answer.
 * `run` gets the id its context is to have (`createContext`'s `requestId`) while an observer
 * is set, so the calls it makes are read with it; `undefined` otherwise. `responseBytes` sizes
 * its answer (default: written out as JSON, only for a span that records or an observer).
 * Where nothing reads any of it (`isTelemetryObserved`), `run` runs as it is.
 */
export function traceGatewayRequest<T extends object>(
  request: GatewayRequest,
  run: (requestId: string | undefined) => Promise<T>,
  responseBytes: (result: T) => number = jsonBytes,
): Promise<T> {
  // Nothing reads spans, metrics or the traffic: the request runs as it is.
  if (!isTelemetryObserved()) return run(undefined);
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
      // The client's trace context (read only when a span is made).
      context: propagation.extract(context.active(), request.meta ?? {}),
    }),
    async (span: Span) => {
      const recording = span.isRecording();
      // Only while an observer is set: a context otherwise makes its own id when it is read.
      const requestId = mcpTrafficObserver() === undefined ? undefined : randomUUID();
      // Sizes written once, for the span that records and the observer alike.
      const requestBytes =
        recording && request.arguments !== undefined ? jsonBytes(request.arguments) : undefined;
      let answerBytes: number | undefined;
      if (requestBytes !== undefined) span.setAttribute('mcp_agent.request.bytes', requestBytes);
      const at = Date.now();
      const started = performance.now();
      let outcome = 'error';
      let errorType: string | undefined;
      let answered: T | undefined;
      try {
        const result = await run(requestId);
        answered = result;
        const isError = (result as { isError?: unknown }).isError === true;
        outcome = isError ? 'tool_error' : 'ok';
        if (isError) {
          errorType = 'tool_error';
          markSpanFailed(span, errorType);
        }
        if (recording) {
          answerBytes = responseBytes(result);
          span.setAttribute('mcp_agent.response.bytes', answerBytes);
        }
        return result;
      } catch (thrown) {
        errorType = toMcpAgentError(thrown).code;
        throw thrown;
      } finally {
        const durationMs = performance.now() - started;
        // Counted once the answer is on its way (none of it changes the answer), when anything
        // counts it.
        const metrics = instruments();
        if (metrics.recording || requestId !== undefined)
          afterTurn(() => {
            const labels = {
              'mcp.method.name': request.method,
              ...(tool === undefined ? {} : { 'gen_ai.tool.name': tool }),
              outcome,
            };
            metrics.gatewayRequests.add(1, labels);
            metrics.gatewayDuration.record(durationMs / 1000, labels);
            if (requestId !== undefined)
              mcpTrafficObserver()?.exchanged({
                direction: 'in',
                userId: request.userId,
                requestId,
                method: request.method,
                name: tool ?? request.method,
                ...(typeof toolId === 'string' ? { toolId: toolId.slice(0, 300) } : {}),
                at,
                durationMs,
                outcome: errorType === undefined ? 'ok' : 'error',
                ...(errorType === undefined ? {} : { errorType }),
                ...(request.arguments === undefined
                  ? {}
                  : { requestBytes: requestBytes ?? jsonBytes(request.arguments) }),
                ...(answered === undefined
                  ? {}
                  : { responseBytes: answerBytes ?? responseBytes(answered) }),
              });
          });
      }
    },
  );
}

/**
 * A tool call's answer with its size: UTF-8 bytes of its content (the text and the images' data)
 * as the gateway wrote it, counted where it was written instead of writing it out again.
 */
export interface MeasuredAnswer {
  readonly result: CallToolResult;
  readonly bytes: number;
}

/**
 * A `tools/call` handler of the gateway, traced by {@link traceGatewayRequest}: `requestId` is
 * the id its context is to have, when one is given.
 */
export function tracedToolCall<Extra>(
  userId: string,
  handler: (
    request: CallToolRequest,
    extra: Extra,
    requestId: string | undefined,
  ) => Promise<MeasuredAnswer>,
): (request: CallToolRequest, extra: Extra) => Promise<CallToolResult> {
  return (request, extra) => {
    // Nothing reads it: no request described, no size kept.
    if (!isTelemetryObserved()) return handler(request, extra, undefined).then(resultOf);
    let size = -1;
    return traceGatewayRequest(
      {
        userId,
        method: 'tools/call',
        tool: request.params.name,
        ...(request.params.arguments === undefined ? {} : { arguments: request.params.arguments }),
        ...(request.params._meta === undefined ? {} : { meta: request.params._meta }),
      },
      (requestId) =>
        handler(request, extra, requestId).then((answer) => {
          size = answer.bytes;
          return answer.result;
        }),
      () => size,
    );
  };
}

const resultOf = (answer: MeasuredAnswer): CallToolResult => answer.result;
