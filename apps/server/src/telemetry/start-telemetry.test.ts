import { describe, expect, it } from 'vitest';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { inSpan, isTracing, mcpTrafficObserver, SpanKind } from '@mcp-agent/core';
import { startTelemetry } from './start-telemetry.js';

describe('startTelemetry', () => {
  it('without a trace exporter makes no span, and the MCP trace log observes the traffic', async () => {
    const telemetry = await startTelemetry({ env: {} });
    try {
      expect(isTracing()).toBe(false);
      expect(mcpTrafficObserver()).toBe(telemetry.mcpTraces);
      expect(await telemetry.prometheus()).toBeDefined();
    } finally {
      await telemetry.shutdown();
    }
    expect(mcpTrafficObserver()).toBeUndefined();
  });

  it('with span processors of its caller, makes spans for them', async () => {
    const exporter = new InMemorySpanExporter();
    const telemetry = await startTelemetry({
      env: {},
      spanProcessors: [new SimpleSpanProcessor({ exporter })],
    });
    try {
      expect(isTracing()).toBe(true);
      await inSpan('tools/call call_tool', { kind: SpanKind.SERVER }, async () => 1);
      expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual([
        'tools/call call_tool',
      ]);
      expect(mcpTrafficObserver()).toBe(telemetry.mcpTraces);
    } finally {
      await telemetry.shutdown();
    }
    expect(isTracing()).toBe(false);
  });

  it('with OTEL_SDK_DISABLED=true registers nothing and observes nothing', async () => {
    const telemetry = await startTelemetry({ env: { OTEL_SDK_DISABLED: 'true' } });
    expect(isTracing()).toBe(false);
    expect(mcpTrafficObserver()).toBeUndefined();
    expect(await telemetry.prometheus()).toBeUndefined();
    await telemetry.shutdown();
  });

  it('refuses a second start in the same process, leaving the first in force', async () => {
    const telemetry = await startTelemetry({ env: {} });
    try {
      await expect(startTelemetry({ env: {} })).rejects.toThrow(/already registered/);
      expect(mcpTrafficObserver()).toBe(telemetry.mcpTraces);
    } finally {
      await telemetry.shutdown();
    }
  });
});
