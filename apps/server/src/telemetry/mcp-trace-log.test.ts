import { describe, expect, it } from 'vitest';
import { context, ROOT_CONTEXT, SpanKind } from '@opentelemetry/api';
import { TracerProvider } from '@opentelemetry/sdk-trace';
import { GATEWAY_USER, McpTraceLog } from './mcp-trace-log.js';

function harness(limits: { maxEntries: number; maxPerUser: number }) {
  const log = new McpTraceLog(limits);
  const tracer = new TracerProvider({ spanProcessors: [log.processor] }).getTracer('test');
  const request = (userId: string | undefined, tool: string) => {
    const parent =
      userId === undefined ? ROOT_CONTEXT : ROOT_CONTEXT.setValue(GATEWAY_USER, userId);
    const incoming = tracer.startSpan(
      `tools/call ${tool}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'mcp_agent.gateway': true,
          'mcp.method.name': 'tools/call',
          'gen_ai.tool.name': tool,
        },
      },
      parent,
    );
    const outgoing = tracer.startSpan(
      'tools/call list_issues',
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'mcp.method.name': 'tools/call',
          'gen_ai.tool.name': 'list_issues',
          'mcp.server': 'github',
        },
      },
      context.with(parent, () => parent),
    );
    // An ordinary span of the same request is not MCP traffic.
    tracer.startSpan('mcp_agent.dispatch', {}, parent).end();
    outgoing.end();
    incoming.end();
  };
  return { log, request };
}

describe('McpTraceLog', () => {
  it('records the gateway’s incoming requests and the calls they made, per user, bounded', () => {
    const { log, request } = harness({ maxEntries: 6, maxPerUser: 4 });
    request('ann', 'call_tool');
    request(undefined, 'call_tool'); // not a gateway request: a task's own call
    expect(log.size).toBe(2);
    expect(log.list('ann').map((e) => [e.direction, e.name])).toEqual([
      ['in', 'call_tool'],
      ['out', 'list_issues'],
    ]);
    expect(log.list('ben')).toEqual([]);
    for (let i = 0; i < 5; i++) request('ann', `search_tools`);
    // Ann holds at most 4.
    expect(log.list('ann')).toHaveLength(4);
    for (let i = 0; i < 2; i++) request('ben', 'describe_tools');
    // 6 in all: Ben's 4 pushed Ann down to 2.
    expect(log.size).toBe(6);
    expect(log.list('ben')).toHaveLength(4);
    expect(log.list('ann')).toHaveLength(2);
    expect(log.list(undefined)).toHaveLength(6);
  });
});
