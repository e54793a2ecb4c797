import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { serverFixtures } from '@mcp-agent/test-support';
import { startObservedServer, type ObservedServer } from '../testing/observed-server.js';

// A loopback OTLP/HTTP receiver: what a collector's port 4318 accepts. The JavaScript "http"
// exporters send JSON (content-type application/json) to /v1/traces and /v1/metrics.
interface Received {
  readonly path: string;
  readonly contentType: string | undefined;
  readonly apiKey: string | undefined;
  readonly body: unknown;
}
const received: Received[] = [];
let receiver: Server;
let server: ObservedServer;
const memory = new InMemorySpanExporter();

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        contentType: req.headers['content-type'],
        apiKey: [req.headers['x-api-key']].flat()[0],
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  server = await startObservedServer({
    fixtures: serverFixtures,
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=collector-key',
    },
    // The same spans, in memory, to compare with what arrived over the wire.
    spanProcessors: [new SimpleSpanProcessor({ exporter: memory })],
  });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly attributes: readonly { key: string; value: Record<string, unknown> }[];
}

function spansOf(requests: readonly Received[]): OtlpSpan[] {
  return requests
    .filter((r) => r.path === '/v1/traces')
    .flatMap((r) =>
      (
        r.body as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }
      ).resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans)),
    );
}

describe('OTLP/HTTP export to a loopback receiver', () => {
  it('receives the same spans as the in-memory exporter: one task, one trace, every span', async () => {
    const use = (name: string, input: unknown) => ({
      content: [{ type: 'tool_use' as const, name, input }],
    });
    server.model.push(
      use('search_tools', { query: 'open issues' }),
      use('describe_tools', { tool_ids: ['github.list_issues'] }),
      use('call_tool', { tool_id: 'github.list_issues', arguments: { repo: 'acme/app' } }),
      use('run_code', {
        code: 'return (await tools.github.list_issues({ repo: "x" })).length;',
      }),
      { content: [{ type: 'text' as const, text: 'Two issues.' }] },
    );
    const auth = { authorization: `Bearer ${server.tokens.alice}` };
    const started = await fetch(`${server.url}/v1/tasks`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ task: 'How many open issues?' }),
    });
    const { id } = (await started.json()) as { id: string };
    for (;;) {
      const task = (await (
        await fetch(`${server.url}/v1/tasks/${id}`, { headers: auth })
      ).json()) as {
        status: string;
      };
      if (task.status !== 'running') {
        expect(task.status).toBe('completed');
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await server.telemetry.flush();
    const traces = received.filter((r) => r.path === '/v1/traces');
    expect(traces.length).toBeGreaterThan(0);
    expect(traces.every((r) => r.contentType === 'application/json')).toBe(true);
    // OTEL_EXPORTER_OTLP_HEADERS reached the collector.
    expect(traces.every((r) => r.apiKey === 'collector-key')).toBe(true);
    const wire = spansOf(received);
    const local = memory.getFinishedSpans();
    const task = local.find((span) => span.name === 'mcp_agent.task');
    expect(task).toBeDefined();
    const traceId = task?.spanContext().traceId;
    const key = (traceIdOf: string, spanId: string, parent: string | undefined, name: string) =>
      `${traceIdOf}/${spanId}/${parent ?? '-'}/${name}`;
    const localTask = local
      .filter((span) => span.spanContext().traceId === traceId)
      .map((span) =>
        key(
          traceId as string,
          span.spanContext().spanId,
          span.parentSpanContext?.spanId,
          span.name,
        ),
      )
      .sort();
    const wireTask = wire
      .filter((span) => span.traceId === traceId)
      .map((span) => key(span.traceId, span.spanId, span.parentSpanId || undefined, span.name))
      .sort();
    expect(wireTask).toEqual(localTask);
    // The whole tree went over the wire: task, steps, model, meta-tools, dispatches, the pooled
    // requests and the sandbox run.
    const names = new Set(wire.filter((s) => s.traceId === traceId).map((s) => s.name));
    for (const name of [
      'mcp_agent.task',
      'mcp_agent.step',
      'chat scripted',
      'mcp_agent.search_tools',
      'mcp_agent.describe_tools',
      'mcp_agent.call_tool',
      'mcp_agent.dispatch',
      'tools/call list_issues',
      'mcp_agent.run_code',
      'mcp_agent.sandbox.run',
    ])
      expect(names).toContain(name);
    expect(localTask.length).toBeGreaterThanOrEqual(20);
    // Attributes arrive typed; the tenant is a hash, never the user id.
    const pooled = wire.find((s) => s.traceId === traceId && s.name === 'tools/call list_issues');
    const attributes = Object.fromEntries(
      (pooled?.attributes ?? []).map((a) => [a.key, Object.values(a.value)[0]]),
    );
    expect(attributes).toMatchObject({ 'mcp.server': 'github', 'mcp_agent.outcome': 'ok' });
    expect(String(attributes['mcp_agent.tenant'])).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.stringify(received)).not.toContain('acme/app');
    expect(JSON.stringify(received)).not.toContain('"alice"');
  }, 60_000);

  it('exports the metrics too, with the service name, to /v1/metrics', async () => {
    await server.telemetry.flush();
    const metrics = received.filter((r) => r.path === '/v1/metrics');
    expect(metrics.length).toBeGreaterThan(0);
    const text = JSON.stringify(metrics.map((m) => m.body));
    expect(text).toContain('mcp_agent.connector.calls');
    expect(text).toContain('mcp_agent.tasks');
    expect(text).toContain('mcp-agent-server');
  });
});
