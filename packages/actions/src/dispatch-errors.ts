import {
  NotReadyError,
  PolicyDeniedError,
  ProviderNotFoundError,
  TimeoutError,
  ToolExecutionError,
  ToolNotFoundError,
  toMcpAgentError,
  UnauthorizedError,
  type McpAgentError,
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
      return new ProviderNotFoundError(availability.reason, { details });
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
