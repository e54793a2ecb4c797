import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace';
import { TENANT_ATTRIBUTE } from '@mcp-agent/core';
import { telemetryLink } from '@mcp-agent/actions';
import { e2e, makeAgent, say, use, USER, useE2eStack } from './e2e-test-helpers.js';

// The SDK as an application registers it: a context manager (without one, nothing nests) and a
// tracer provider, here exporting to memory.
const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const contextManager = new AsyncLocalStorageContextManager();

useE2eStack('anthropic');

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
  trace.setGlobalTracerProvider(provider);
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
});
beforeEach(() => exporter.reset());

/** The spans as an indented outline, children in start order. */
function outline(spans: readonly ReadableSpan[]): string[] {
  const children = new Map<string | undefined, ReadableSpan[]>();
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId;
    const key = parent !== undefined && ids.has(parent) ? parent : undefined;
    children.set(key, [...(children.get(key) ?? []), span]);
  }
  const started = (s: ReadableSpan) => s.startTime[0] * 1e9 + s.startTime[1];
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    for (const span of [...(children.get(parent) ?? [])].sort((a, b) => started(a) - started(b))) {
      lines.push(`${'  '.repeat(depth)}${span.name}`);
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}

describe('one task is one trace (in-memory exporter)', () => {
  it('task → steps → model, search, describe, dispatch → pooled MCP request; a sandbox run whose tool calls are its children; a server sub-agent inside', async () => {
    const agent = makeAgent({ links: [telemetryLink], serverAgents: true });
    e2e.model.push(
      use('search_tools', { query: 'list open issues' }),
      use('describe_tools', { tool_ids: ['github.list_issues', 'github.add_label'] }),
      use('call_tool', { tool_id: 'github.list_issues', arguments: { repo: 'acme/secret-app' } }),
      use('run_code', {
        code: 'const issues = await tools.github.list_issues({ repo: "acme/secret-app" }); await tools.github.add_label({ issue: issues[0].number, label: "bug" }); return issues.length;',
      }),
      use('query_server', { server_id: 'github', query: 'How many open issues?' }),
      // The sub-agent's own loop: one search, then its answer.
      use('search_tools', { query: 'issues' }),
      say('Two.'),
      say('Labelled 7; two issues are open.'),
    );
    const result = await agent.executeTask('Label the crash issue', USER);
    expect(result.status).toBe('completed');
    const spans = exporter.getFinishedSpans();
    // One trace: every span shares the task's trace id.
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    // The Anthropic SDK's own call span (metadata only, by default) sits under our model span.
    expect(outline(spans)).toEqual([
      'mcp_agent.task',
      '  mcp_agent.step',
      '    chat scripted',
      '      anthropic.messages.create',
      '    mcp_agent.search_tools',
      '  mcp_agent.step',
      '    chat scripted',
      '      anthropic.messages.create',
      '    mcp_agent.describe_tools',
      '  mcp_agent.step',
      '    chat scripted',
      '      anthropic.messages.create',
      '    mcp_agent.call_tool',
      '      mcp_agent.dispatch',
      '        tools/call list_issues',
      '  mcp_agent.step',
      '    chat scripted',
      '      anthropic.messages.create',
      '    mcp_agent.run_code',
      '      mcp_agent.sandbox.run',
      '        mcp_agent.dispatch',
      '          tools/call list_issues',
      '        mcp_agent.dispatch',
      '          tools/call add_label',
      '  mcp_agent.step',
      '    chat scripted',
      '      anthropic.messages.create',
      '    mcp_agent.query_server',
      '      mcp_agent.step',
      '        chat scripted',
      '          anthropic.messages.create',
      '        mcp_agent.search_tools',
      '      mcp_agent.step',
      '        chat scripted',
      '          anthropic.messages.create',
      '  mcp_agent.step',
      '    chat scripted',
      '      anthropic.messages.create',
    ]);
    const byName = (name: string) => spans.filter((s) => s.name === name);
    const [task] = byName('mcp_agent.task');
    expect(task?.attributes).toMatchObject({
      'mcp_agent.request_id': result.requestId,
      'mcp_agent.task.status': 'completed',
      'mcp_agent.task.steps': result.steps.length,
      'gen_ai.usage.input_tokens': result.usage.inputTokens,
    });
    // The tenant is a keyed hash, never the user id itself.
    expect(task?.attributes[TENANT_ATTRIBUTE]).toMatch(/^[0-9a-f]{16}$/);
    expect(task?.attributes[TENANT_ATTRIBUTE]).not.toBe(USER);
    const [pooled] = byName('tools/call list_issues');
    expect(pooled?.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'list_issues',
      'mcp.server': 'github',
      'mcp_agent.outcome': 'ok',
      'mcp_agent.connection.reused': true,
    });
    expect(pooled?.attributes['mcp_agent.request.bytes']).toBeGreaterThan(0);
    expect(pooled?.attributes['mcp_agent.response.bytes']).toBeGreaterThan(0);
    expect(byName('mcp_agent.sandbox.run')[0]?.attributes).toMatchObject({
      'mcp_agent.outcome': 'ok',
      'mcp_agent.sandbox.tool_calls': 2,
    });
    expect(byName('chat scripted')[0]?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'scripted',
      'gen_ai.usage.input_tokens': expect.any(Number),
      'gen_ai.usage.output_tokens': expect.any(Number),
    });
    // Never arguments, results, queries or answers: nothing the user or a server wrote.
    const recorded = JSON.stringify(spans.map((s) => [s.attributes, s.events, s.status]));
    for (const text of ['secret-app', 'Crash on start', 'list open issues', 'Two.', USER])
      expect(recorded).not.toContain(text);
  });

  it('a failed tool call marks its spans with the error code, and the task still ends as one trace', async () => {
    const agent = makeAgent({ links: [telemetryLink] });
    e2e.model.push(
      use('describe_tools', { tool_ids: ['github.add_label'] }),
      use('call_tool', { tool_id: 'github.add_label', arguments: { issue: 'seven' } }),
      say('Could not.'),
    );
    const result = await agent.executeTask('Label it', USER);
    expect(result.status).toBe('completed');
    const spans = exporter.getFinishedSpans();
    const call = spans.find((s) => s.name === 'mcp_agent.call_tool');
    // Invalid arguments never reach the server: no dispatch, no pooled request.
    expect(call?.attributes['error.type']).toBe('INVALID_ARGUMENTS');
    expect(call?.status).toMatchObject({ code: 2, message: 'INVALID_ARGUMENTS' });
    expect(spans.some((s) => s.name.startsWith('tools/call'))).toBe(false);
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
  });
});
