import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { CallToolRequest } from '@modelcontextprotocol/sdk/types.js';
import {
  createContext,
  jsonBytes,
  NotFoundError,
  observeMcpTraffic,
  type McpExchange,
} from '@mcp-agent/core';
import { ConnectionPool, type Registry } from '@mcp-agent/registry';
import { createTestRegistry } from '@mcp-agent/registry/testing';
import { serverFixtures } from '@mcp-agent/test-support';
import { McpTraceLog } from '../telemetry/mcp-trace-log.js';
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

// A failing call is named by one code: the span's `error.type` (and status) and the trace log's
// `errorType` agree, for a call the pool sends and a request the gateway answers alike (both
// through core's `tracedCall`). The pool's case once disagreed: `inSpan` overwrote the JSON-RPC
// code with our own.
let log: McpTraceLog;
let registry: Registry | undefined;
let pool: ConnectionPool | undefined;
afterEach(async () => {
  observeMcpTraffic(undefined);
  exporter.reset();
  await pool?.close();
  await registry?.close();
  pool = undefined;
  registry = undefined;
});

const afterTheTurn = () => new Promise((resolve) => setImmediate(resolve));

function failedSpan(name: string) {
  const spans = exporter.getFinishedSpans().filter((span) => span.name === name);
  expect(spans).toHaveLength(1);
  const [span] = spans;
  expect(span?.status.code).toBe(SpanStatusCode.ERROR);
  return { errorType: span?.attributes['error.type'], status: span?.status.message };
}

describe('the span and the trace log name a failure alike', () => {
  it('a pooled call the server fails with a JSON-RPC error: its code on both', async () => {
    registry = await createTestRegistry();
    pool = new ConnectionPool(registry, { attempts: 1, pingIntervalMs: 0 });
    const ctx = createContext({ userId: 'alice' });
    await registry.addServer(ctx, {
      id: 'crashing',
      transport: 'stdio',
      command: process.execPath,
      // Answers the handshake and tools/list, then exits on a tools/call.
      args: [serverFixtures.misbehaving, 'crash-on-call'],
    });
    await pool.ready(ctx, 'crashing');
    log = new McpTraceLog();
    observeMcpTraffic(log);
    await expect(pool.callTool(ctx, 'crashing', 'echo', { text: 'x' })).rejects.toThrow();
    await afterTheTurn();
    const [entry] = log.list('alice');
    expect(entry).toMatchObject({ direction: 'out', name: 'echo', outcome: 'error' });
    // A JSON-RPC code, as the MCP conventions name a protocol error: not our INTERNAL.
    expect(entry?.errorType).toMatch(/^-32\d{3}$/);
    expect(failedSpan('tools/call echo')).toEqual({
      errorType: entry?.errorType,
      status: entry?.errorType,
    });
  });

  it('a gateway request that throws, and one answered with isError: the same code on both', async () => {
    log = new McpTraceLog();
    observeMcpTraffic(log);
    const handler = tracedToolCall('alice', async (request: CallToolRequest) => {
      if (request.params.name === 'run_code') throw new NotFoundError('gone');
      return { result: { content: [], isError: true }, bytes: 2 };
    });
    const request = (name: string) =>
      ({ method: 'tools/call', params: { name, arguments: {} } }) as CallToolRequest;
    await expect(handler(request('run_code'), {})).rejects.toThrow('gone');
    await handler(request('call_tool'), {});
    await afterTheTurn();
    const byName = new Map(log.list('alice').map((entry) => [entry.name, entry.errorType]));
    expect(byName).toEqual(
      new Map([
        ['run_code', 'NOT_FOUND'],
        ['call_tool', 'tool_error'],
      ]),
    );
    expect(failedSpan('tools/call run_code')).toEqual({
      errorType: 'NOT_FOUND',
      status: 'NOT_FOUND',
    });
    expect(failedSpan('tools/call call_tool')).toEqual({
      errorType: 'tool_error',
      status: 'tool_error',
    });
  });
});
