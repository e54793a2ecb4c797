import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { CallToolRequest } from '@modelcontextprotocol/sdk/types.js';
import { jsonBytes, NotFoundError, observeMcpTraffic, type McpExchange } from '@mcp-agent/core';
import { tracedToolCall } from './gateway-telemetry.js';

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
  trace.setGlobalTracerProvider(provider);
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
});

describe('tracedToolCall', () => {
  it("answers the handler's result, and counts its bytes where they were written instead of writing them out again", async () => {
    const text = JSON.stringify({ tool_id: 'a.b', result: 'Zoë ✓' });
    const result = { content: [{ type: 'text' as const, text }] };
    // Not the bytes of the result written out: the count the handler gives is the one recorded.
    const handler = tracedToolCall('alice', async () => ({ result, bytes: 4_321 }));
    const request = {
      method: 'tools/call',
      params: { name: 'call_tool', arguments: { tool_id: 'a.b', arguments: {} } },
    } as CallToolRequest;
    expect(await handler(request, {})).toBe(result);
    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe('tools/call call_tool');
    expect(span?.attributes['mcp_agent.response.bytes']).toBe(4_321);
  });

  it('tells the MCP traffic observer of each request, and hands its id on for the calls it makes', async () => {
    const request = (name: string) =>
      ({
        method: 'tools/call',
        params: { name, arguments: { tool_id: 'github.list_issues', arguments: { q: 'x' } } },
      }) as CallToolRequest;
    const result = { content: [{ type: 'text' as const, text: 'ok' }] };
    const ids: (string | undefined)[] = [];
    const handler = tracedToolCall('alice', async (_request, _extra, requestId) => {
      ids.push(requestId);
      if (_request.params.name === 'run_code') throw new NotFoundError('gone');
      return { result, bytes: 2 };
    });
    await handler(request('call_tool'), {});
    // Without an observer no id is made: the context makes its own when it is read.
    expect(ids).toEqual([undefined]);
    const seen: McpExchange[] = [];
    observeMcpTraffic({ exchanged: (exchange) => seen.push(exchange) });
    try {
      await handler(request('call_tool'), {});
      await expect(handler(request('run_code'), {})).rejects.toThrow('gone');
      await handler(request('made_up'), {});
      // Told after the turn that answered: once it is over.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      observeMcpTraffic(undefined);
    }
    expect(ids.slice(1).every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(4);
    expect(seen).toEqual([
      {
        direction: 'in',
        userId: 'alice',
        requestId: ids[1],
        method: 'tools/call',
        name: 'call_tool',
        toolId: 'github.list_issues',
        at: expect.any(Number),
        durationMs: expect.any(Number),
        outcome: 'ok',
        requestBytes: jsonBytes(request('call_tool').params.arguments),
        responseBytes: 2,
      },
      expect.objectContaining({
        requestId: ids[2],
        name: 'run_code',
        outcome: 'error',
        errorType: 'NOT_FOUND',
      }),
      // A name the client made up is not recorded as it is: it would grow without bound.
      expect.objectContaining({ requestId: ids[3], name: 'unknown', outcome: 'ok' }),
    ]);
  });
});
