import { randomUUID } from 'node:crypto';
import { context, propagation } from '@opentelemetry/api';
import {
  instruments,
  isTelemetryObserved,
  jsonBytes,
  mcpTrafficObserver,
  SpanKind,
  tenantAttributes,
  tracedCall,
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
 * those two after the turn that answered it (core's `tracedCall`, as the pool's calls), so that
 * neither delays the answer, the span and the observer naming a failure by the same code.
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
  // Only while an observer is set: a context otherwise makes its own id when it is read.
  const requestId = mcpTrafficObserver() === undefined ? undefined : randomUUID();
  return tracedCall(
    {
      name: tool === undefined ? request.method : `${request.method} ${tool}`,
      start: () => ({
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
      arguments: request.arguments,
      responseBytes,
      ...(requestId === undefined
        ? {}
        : {
            exchange: () => ({
              direction: 'in' as const,
              userId: request.userId,
              requestId,
              method: request.method,
              name: tool ?? request.method,
              ...(typeof toolId === 'string' ? { toolId: toolId.slice(0, 300) } : {}),
            }),
          }),
      count: ({ outcome, durationMs }) => {
        const metrics = instruments();
        const labels = {
          'mcp.method.name': request.method,
          ...(tool === undefined ? {} : { 'gen_ai.tool.name': tool }),
          outcome,
        };
        metrics.gatewayRequests.add(1, labels);
        metrics.gatewayDuration.record(durationMs / 1000, labels);
      },
    },
    () => run(requestId),
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
