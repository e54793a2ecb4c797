import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  CompositePropagator,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import {
  configureTenantAttribute,
  ConfigError,
  mcpTrafficObserver,
  observeMcpTraffic,
  type Environment,
} from '@mcp-agent/core';
import { McpTraceLog } from './mcp-trace-log.js';
import { observeProcess, type ObservedSources } from './process-gauges.js';
import { readTelemetryConfig, type TelemetryConfig } from './telemetry-config.js';

/** Options of {@link startTelemetry}. */
export interface StartTelemetryOptions {
  /** Where the `OTEL_*` variables are read; default `process.env`. */
  readonly env?: Environment;
  /** Name of the service when `OTEL_SERVICE_NAME` does not say; default `mcp-agent-server`. */
  readonly serviceName?: string;
  /** More span processors (a test's in-memory exporter). */
  readonly spanProcessors?: readonly SpanProcessor[];
}

/** The OpenTelemetry SDK as an app runs it: stop it once, at shutdown. */
export interface Telemetry {
  /** What the SDK was started with. */
  readonly config: TelemetryConfig;
  /** The process's MCP traffic (the gateway's requests, the calls to servers), for the web UI. */
  readonly mcpTraces: McpTraceLog;
  /** Every metric now as Prometheus text (`/metrics`); `undefined` when the SDK is disabled. */
  prometheus(): Promise<string | undefined>;
  /** Reports the process's memory and the pool's and gateway's sessions as gauges. */
  observe(sources: ObservedSources): void;
  /** Exports every span and metric recorded so far (OTLP), without stopping. */
  flush(): Promise<void>;
  /** Exports what is pending, then unregisters the SDK. */
  shutdown(): Promise<void>;
}

/**
 * Registers the OpenTelemetry SDK for this process from the standard `OTEL_*` variables: a meter
 * provider read as Prometheus text at `/metrics` and exported over OTLP/HTTP when configured;
 * when traces are exported over OTLP/HTTP (or `spanProcessors` given), a tracer provider, an
 * AsyncLocalStorage context manager (so spans nest across awaits) and W3C trace-context and
 * baggage propagation. The web UI's MCP trace log observes the MCP traffic directly, spans or
 * none (`observeMcpTraffic`). `OTEL_SDK_DISABLED=true` registers nothing and keeps no log. One
 * process registers once: a second call is a `ConfigError`.
 */
export async function startTelemetry(options: StartTelemetryOptions = {}): Promise<Telemetry> {
  const config = readTelemetryConfig(options.env ?? process.env);
  configureTenantAttribute({
    mode: config.tenant,
    ...(config.tenantKey === undefined ? {} : { key: config.tenantKey }),
  });
  const mcpTraces = new McpTraceLog();
  if (config.disabled) {
    return {
      config,
      mcpTraces,
      prometheus: async () => undefined,
      observe: () => undefined,
      flush: async () => undefined,
      shutdown: async () => undefined,
    };
  }
  const resource = resourceFromAttributes({
    'service.name': options.serviceName ?? 'mcp-agent-server',
    'service.version': '0.1.0',
  }).merge(detectResources({ detectors: [envDetector] }));
  // Spans are made only for something that reads them: an exporter, or the caller's processors.
  // The web UI's MCP trace log is fed directly (observeMcpTraffic), at a fraction of the cost.
  const spanProcessors: SpanProcessor[] = [
    ...(config.traces === undefined
      ? []
      : [
          new BatchSpanProcessor({
            exporter: new OTLPTraceExporter({
              url: config.traces.url,
              headers: { ...config.traces.headers },
            }),
          }),
        ]),
    ...(options.spanProcessors ?? []),
  ];
  const tracerProvider =
    spanProcessors.length === 0
      ? undefined
      : new TracerProvider({ resource, sampler: samplerOf(config), spanProcessors });
  const prometheus = new PrometheusExporter({ preventServerStart: true });
  const meterProvider = new MeterProvider({
    resource,
    readers: [
      prometheus,
      ...(config.metrics === undefined
        ? []
        : [
            new PeriodicExportingMetricReader({
              exporter: new OTLPMetricExporter({
                url: config.metrics.url,
                headers: { ...config.metrics.headers },
              }),
              exportIntervalMillis: config.metricIntervalMs,
            }),
          ]),
    ],
  });
  const registered =
    metrics.setGlobalMeterProvider(meterProvider) &&
    (tracerProvider === undefined ||
      (context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable()) &&
        trace.setGlobalTracerProvider(tracerProvider) &&
        propagation.setGlobalPropagator(
          new CompositePropagator({
            propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
          }),
        )));
  if (!registered) {
    await Promise.all([tracerProvider?.shutdown(), meterProvider.shutdown()]);
    throw new ConfigError(
      'OpenTelemetry is already registered in this process: start telemetry once, before opening the stack.',
    );
  }
  observeMcpTraffic(mcpTraces);
  const serializer = new PrometheusSerializer();
  const stopObserving: (() => void)[] = [];
  return {
    config,
    mcpTraces,
    async prometheus() {
      const { resourceMetrics } = await prometheus.collect();
      return serializer.serialize(resourceMetrics);
    },
    observe(sources) {
      stopObserving.push(observeProcess(meterProvider, sources));
    },
    async flush() {
      await Promise.all([tracerProvider?.forceFlush(), meterProvider.forceFlush()]);
    },
    async shutdown() {
      for (const stop of stopObserving.splice(0)) stop();
      await Promise.allSettled([tracerProvider?.shutdown(), meterProvider.shutdown()]);
      if (mcpTrafficObserver() === mcpTraces) observeMcpTraffic(undefined);
      trace.disable();
      metrics.disable();
      propagation.disable();
      context.disable();
    },
  };
}

function samplerOf(config: TelemetryConfig): Sampler {
  const ratio = () => new TraceIdRatioBasedSampler(config.samplerRatio);
  switch (config.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio();
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio() });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}
