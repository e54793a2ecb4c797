import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { CallToolRequest } from '@modelcontextprotocol/sdk/types.js';
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
});
