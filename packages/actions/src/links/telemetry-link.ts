import { inSpan, isTracing, markSpanFailed, SpanKind } from '@mcp-agent/core';
import type { DispatchLink } from '../tool-call.js';

/**
 * Traces each validated call in a `mcp_agent.dispatch` span: the tool, the server and who asked
 * (the model, or code in the sandbox), and whether the tool answered with an error. The links
 * after it and the pooled MCP request are its children. Arguments and results are never recorded.
 * Put it first, so the span covers the whole chain. Without a tracer it is not there at all: the
 * call goes straight on (no wrapper, no tick).
 */
export const telemetryLink: DispatchLink = (_ctx, call, next) =>
  !isTracing()
    ? next(call)
    : inSpan(
        'mcp_agent.dispatch',
        () => ({
          kind: SpanKind.INTERNAL,
          attributes: {
            'mcp_agent.tool_id': call.toolId,
            'mcp.server': call.serverId,
            'gen_ai.tool.name': call.toolName,
            'mcp_agent.caller': call.caller,
          },
        }),
        async (span) => {
          const result = await next(call);
          if (result.isError === true) markSpanFailed(span, 'tool_error');
          return result;
        },
      );
