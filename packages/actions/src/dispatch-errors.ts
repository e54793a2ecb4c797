import {
  InvalidArgumentsError,
  NotFoundError,
  NotReadyError,
  PolicyDeniedError,
  ServerNotFoundError,
  TimeoutError,
  ToolExecutionError,
  ToolNotFoundError,
  toMcpAgentError,
  UnauthorizedError,
  type ActionResponse,
  type McpAgentError,
  type ToolId,
} from '@mcp-agent/core';
import type { ToolVerdict } from './tool-resolver.js';

/** The error of a call refused by availability: each verdict's code gets its error class. */
export function unavailable(toolId: string, availability: ToolVerdict): McpAgentError {
  if (availability.available) {
    return new ToolNotFoundError(`Unknown tool ${toolId}. Use search_tools to find tool ids.`, {
      details: { toolId },
    });
  }
  const details = { toolId, reason: availability.code };
  switch (availability.code) {
    case 'not_connected':
      return new ServerNotFoundError(availability.reason, { details });
    case 'tool_unknown':
      return new ToolNotFoundError(`${availability.reason} Use search_tools to find tool ids.`, {
        details,
      });
    case 'needs_auth':
      return new UnauthorizedError(availability.reason, { details });
    case 'disabled':
    case 'disabled_in_thread':
    case 'not_allowed':
      return new PolicyDeniedError(availability.reason, { details });
    default:
      return new NotReadyError(availability.reason, { details });
  }
}

/** MCP protocol errors (timeouts, closed connections, server JSON-RPC errors) get our codes. */
export function fromMcp(thrown: unknown, toolId: string): McpAgentError {
  // The pool's timeout names the server, the limit and the fix; the tool goes first.
  if (TimeoutError.isInstance(thrown))
    return new TimeoutError(`${toolId} timed out. ${thrown.message}`, {
      cause: thrown,
      details: { toolId, ...thrown.details },
    });
  const code = (thrown as { code?: unknown } | null)?.code;
  if (typeof code === 'number') {
    const message = (thrown as Error).message ?? 'MCP error';
    if (code === -32001)
      return toMcpAgentError(Object.assign(new Error(message), { name: 'TimeoutError' }));
    return new ToolExecutionError(`${toolId} failed: ${message}`, {
      cause: thrown,
      details: { toolId, mcpCode: code },
    });
  }
  return toMcpAgentError(thrown);
}

/** The id `read_result` was given, when it can be one; else why not. */
export function checkObservationId(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 100) {
    throw new InvalidArgumentsError(
      'read_result needs the id of a kept result, as a cut marker gives it (obs_…).',
    );
  }
  return value;
}

/** The refusal of an id that names no kept result of this tenant. */
export function notKept(observationId: string): McpAgentError {
  return new NotFoundError(
    `No result ${JSON.stringify(observationId)} is kept for you: the id is wrong, or the result expired or gave way to newer ones. Call the tool again for a fresh result.`,
    { details: { observationId, reason: 'not_kept' } },
  );
}

/** A failed read of a kept result as an `ActionResponse`. */
export function failedRead(
  thrown: unknown,
  observationId: unknown,
  started: number,
): ActionResponse {
  const error = toMcpAgentError(thrown);
  return {
    ok: false,
    error: { code: error.code, message: error.message, details: error.details },
    meta: {
      toolId: '' as ToolId,
      durationMs: elapsed(started),
      truncated: false,
      ...(typeof observationId === 'string' && observationId.length <= 100
        ? { observationId }
        : {}),
    },
  };
}

/** Milliseconds since `started`, to the microsecond: every response's `durationMs`. */
export function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}
