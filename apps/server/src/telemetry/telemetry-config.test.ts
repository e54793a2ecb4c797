import { describe, expect, it } from 'vitest';
import { readTelemetryConfig } from './telemetry-config.js';

describe('readTelemetryConfig (the standard OTEL_* variables)', () => {
  it('exports nothing over OTLP when no endpoint is set; hashes tenants by default', () => {
    expect(readTelemetryConfig({})).toMatchObject({
      disabled: false,
      traces: undefined,
      metrics: undefined,
      sampler: 'parentbased_always_on',
      tenant: 'hash',
      metricIntervalMs: 60_000,
    });
  });

  it('one endpoint gives each signal its path; a per-signal endpoint and headers win', () => {
    const config = readTelemetryConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'https://metrics.example/v1/metrics',
      OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer%20abc,x-team=obs',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-team=traces',
    });
    expect(config.traces).toEqual({
      url: 'http://collector:4318/v1/traces',
      headers: { authorization: 'Bearer abc', 'x-team': 'traces' },
    });
    expect(config.metrics).toEqual({
      url: 'https://metrics.example/v1/metrics',
      headers: { authorization: 'Bearer abc', 'x-team': 'obs' },
    });
  });

  it('OTEL_*_EXPORTER=none turns a signal off; otlp by name uses the default endpoint', () => {
    const config = readTelemetryConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_METRICS_EXPORTER: 'none',
    });
    expect(config.metrics).toBeUndefined();
    expect(config.traces?.url).toBe('http://collector:4318/v1/traces');
    expect(readTelemetryConfig({ OTEL_TRACES_EXPORTER: 'otlp' }).traces?.url).toBe(
      'http://localhost:4318/v1/traces',
    );
  });

  it('OTEL_SDK_DISABLED=true disables everything', () => {
    expect(
      readTelemetryConfig({
        OTEL_SDK_DISABLED: 'true',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      }),
    ).toMatchObject({ disabled: true, traces: undefined, metrics: undefined });
  });

  it('refuses what it cannot honour, naming the variable and what works', () => {
    expect(() => readTelemetryConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported.*http\/json/,
    );
    expect(() =>
      readTelemetryConfig({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' }),
    ).toThrow(/http\/json/);
    expect(() => readTelemetryConfig({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/otlp or none/);
    expect(() => readTelemetryConfig({ OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(
      /OTEL_TRACES_SAMPLER/,
    );
    expect(() =>
      readTelemetryConfig({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' }),
    ).toThrow(/ratio from 0 to 1/);
    expect(() => readTelemetryConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT must be an http/,
    );
    expect(() =>
      readTelemetryConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_HEADERS: 'novalue',
      }),
    ).toThrow(/key=value/);
    expect(() => readTelemetryConfig({ MCP_AGENT_TELEMETRY_TENANT: 'plain' })).toThrow(
      /"hash".*"omit"/,
    );
    expect(() => readTelemetryConfig({ OTEL_METRIC_EXPORT_INTERVAL: '10' })).toThrow(/1000/);
  });
});
