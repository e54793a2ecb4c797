import { afterEach, describe, expect, it } from 'vitest';
import {
  createContextKey,
  INVALID_SPAN_CONTEXT,
  metrics,
  ROOT_CONTEXT,
  SpanKind,
  trace,
  type Meter,
  type Context,
  type MeterProvider,
  type Span,
  type SpanOptions,
  type Tracer,
} from '@opentelemetry/api';
import { instruments } from './instruments.js';
import { observeMcpTraffic } from './mcp-traffic.js';
import { isTelemetryObserved } from './telemetry-observed.js';
import { configureTenantAttribute, tenantAttributes, tenantHash } from './tenant-attribute.js';
import { NotFoundError } from '../errors.js';
import { inSpan, markSpanFailed, recordInternalSpans } from './tracing.js';

afterEach(() => {
  recordInternalSpans(true);
  metrics.disable();
  trace.disable();
  configureTenantAttribute({ mode: 'hash' });
});

describe('telemetry without an SDK', () => {
  it('inSpan runs the work, returns its value and rethrows its error', async () => {
    await expect(inSpan('work', {}, async () => 42)).resolves.toBe(42);
    await expect(
      inSpan('work', {}, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
  });

  it('inSpan makes no span and never builds its attributes while no SDK is registered', async () => {
    let built = 0;
    const start = () => ((built += 1), { attributes: { 'mcp_agent.tool_id': 'a.b' } });
    const recording = await inSpan('work', start, async (span) => span.isRecording());
    expect({ built, recording }).toEqual({ built: 0, recording: false });
  });

  it('inSpan starts a span of the SDK registered later, with the attributes it builds then', async () => {
    const started: { name: string; options: SpanOptions; ended: boolean }[] = [];
    const tracer = {
      startActiveSpan: (name: string, options: SpanOptions, run: (span: Span) => unknown) => {
        const record = { name, options, ended: false };
        started.push(record);
        const span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
        span.end = () => void (record.ended = true);
        return run(span);
      },
    } as unknown as Tracer;
    trace.setGlobalTracerProvider({ getTracer: () => tracer });
    const start = () => ({ attributes: { 'mcp_agent.tool_id': 'a.b' } });
    await expect(inSpan('work', start, async () => 42)).resolves.toBe(42);
    expect(started).toEqual([
      { name: 'work', options: { attributes: { 'mcp_agent.tool_id': 'a.b' } }, ended: true },
    ]);
    // Unregistered again: back to no span at all.
    trace.disable();
    await inSpan('after', start, async () => 0);
    expect(started).toHaveLength(1);
  });

  it('inSpan starts a span in the context it is given, entered once with the span', async () => {
    const key = createContextKey('test.user');
    const parents: (Context | undefined)[] = [];
    const tracer = {
      startActiveSpan: (...args: unknown[]) => {
        // (name, options, run) or (name, options, context, run): the SDK's two forms.
        parents.push(args.length === 4 ? (args[2] as Context) : undefined);
        const run = args.at(-1) as (span: Span) => unknown;
        return run(trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
      },
    } as unknown as Tracer;
    trace.setGlobalTracerProvider({ getTracer: () => tracer });
    const given = ROOT_CONTEXT.setValue(key, 'alice');
    await inSpan(
      'request',
      () => ({ kind: SpanKind.SERVER, context: given }),
      async () => 1,
    );
    await inSpan('plain', { kind: SpanKind.SERVER }, async () => 2);
    expect(parents).toEqual([given, undefined]);
    expect(parents[0]?.getValue(key)).toBe('alice');
  });

  it('inSpan starts a leaf span without entering it, and ends it whatever its work does', async () => {
    const made: { name: string; ended: boolean }[] = [];
    const tracer = {
      startSpan: (name: string) => {
        const record = { name, ended: false };
        made.push(record);
        const span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
        span.end = () => void (record.ended = true);
        return span;
      },
      startActiveSpan: () => {
        throw new Error('a leaf is never entered');
      },
    } as unknown as Tracer;
    trace.setGlobalTracerProvider({ getTracer: () => tracer });
    const leaf = { kind: SpanKind.CLIENT, leaf: true };
    await expect(inSpan('tools/call a', leaf, async () => 3)).resolves.toBe(3);
    await expect(
      inSpan('tools/call b', leaf, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(made).toEqual([
      { name: 'tools/call a', ended: true },
      { name: 'tools/call b', ended: true },
    ]);
  });

  it('inSpan marks a throw with its stable code, unless the work marked the span failed first', async () => {
    const marks: string[][] = [];
    const tracer = {
      startActiveSpan: (_name: string, _options: SpanOptions, run: (span: Span) => unknown) => {
        const codes: string[] = [];
        marks.push(codes);
        // A span that records: what it was marked with is kept, in order.
        const span = {
          isRecording: () => true,
          setAttribute: (key: string, value: string) => {
            if (key === 'error.type') codes.push(value);
            return span;
          },
          setStatus: () => span,
          end: () => undefined,
        } as unknown as Span;
        return run(span);
      },
    } as unknown as Tracer;
    trace.setGlobalTracerProvider({ getTracer: () => tracer });
    await expect(
      inSpan('plain', {}, async () => {
        throw new NotFoundError('gone');
      }),
    ).rejects.toThrow('gone');
    await expect(
      inSpan('marked', {}, async (span) => {
        markSpanFailed(span, '-32000');
        throw new Error('Connection closed');
      }),
    ).rejects.toThrow('Connection closed');
    expect(marks).toEqual([['NOT_FOUND'], ['-32000']]);
  });

  it('inSpan makes only server and client spans while internal ones are off', async () => {
    const names: string[] = [];
    const tracer = {
      startActiveSpan: (name: string, _options: SpanOptions, run: (span: Span) => unknown) => {
        names.push(name);
        return run(trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
      },
    } as unknown as Tracer;
    trace.setGlobalTracerProvider({ getTracer: () => tracer });
    recordInternalSpans(false);
    const nested = () =>
      inSpan('step', {}, () =>
        inSpan('dispatch', { kind: SpanKind.INTERNAL }, () =>
          inSpan('tools/call', { kind: SpanKind.CLIENT }, async () => 7),
        ),
      );
    await expect(inSpan('request', { kind: SpanKind.SERVER }, nested)).resolves.toBe(7);
    await expect(
      inSpan('step', {}, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(names).toEqual(['request', 'tools/call']);
    recordInternalSpans(true);
    await nested();
    expect(names).toEqual(['request', 'tools/call', 'step', 'dispatch', 'tools/call']);
  });
});

describe('tenantAttributes', () => {
  it('is a keyed hash of the user id by default, stable under one key; omit records nothing', () => {
    configureTenantAttribute({ mode: 'hash', key: 'operator-key' });
    const first = tenantHash('alice@example.com');
    expect(first).toMatch(/^[0-9a-f]{16}$/);
    expect(tenantHash('alice@example.com')).toBe(first);
    expect(tenantHash('bob@example.com')).not.toBe(first);
    expect(tenantAttributes('alice@example.com')).toEqual({ 'mcp_agent.tenant': first });
    configureTenantAttribute({ mode: 'hash', key: 'another-key' });
    expect(tenantHash('alice@example.com')).not.toBe(first);
    configureTenantAttribute({ mode: 'omit' });
    expect(tenantAttributes('alice@example.com')).toEqual({});
  });
});

describe('instruments', () => {
  it('are made again when an application registers a meter provider after first use', () => {
    const before = instruments();
    expect(instruments()).toBe(before);
    const created: string[] = [];
    const meter = new Proxy({} as Meter, {
      get: (_target, method: string) => (name: string) => {
        created.push(`${method}:${name}`);
        return { add: () => undefined, record: () => undefined };
      },
    });
    const provider: MeterProvider = { getMeter: () => meter };
    metrics.setGlobalMeterProvider(provider);
    const after = instruments();
    expect(after).not.toBe(before);
    // Nothing recorded them before; the application's meter does.
    expect([before.recording, after.recording]).toEqual([false, true]);
    expect(created).toContain('createCounter:mcp_agent.connector.calls');
    expect(created).toContain('createHistogram:mcp_agent.connector.duration');
    expect(instruments()).toBe(after);
  });
});

describe('isTelemetryObserved', () => {
  it('is true while a tracer, a recording meter or a traffic observer is there, and only then', () => {
    expect(isTelemetryObserved()).toBe(false);
    trace.setGlobalTracerProvider({ getTracer: () => ({}) as Tracer });
    expect(isTelemetryObserved()).toBe(true);
    trace.disable();
    const meter = new Proxy({} as Meter, {
      get: () => () => ({ add: () => undefined, record: () => undefined }),
    });
    metrics.setGlobalMeterProvider({ getMeter: () => meter });
    expect(isTelemetryObserved()).toBe(true);
    metrics.disable();
    observeMcpTraffic({ exchanged: () => undefined });
    try {
      expect(isTelemetryObserved()).toBe(true);
    } finally {
      observeMcpTraffic(undefined);
    }
    expect(isTelemetryObserved()).toBe(false);
  });
});
