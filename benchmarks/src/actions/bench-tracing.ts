import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BatchSpanProcessor,
  TracerProvider,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';

/**
 * The OpenTelemetry SDK as an application registers it (context manager, tracer provider with a
 * batch processor, meter provider), exporting to a sink that counts and drops: what tracing costs
 * the caller without any network. Returns how many spans were exported, and the stop.
 */
export function registerBenchTracing(): { spans: () => number; stop: () => Promise<void> } {
  let exported = 0;
  const sink: SpanExporter = {
    export(spans: ReadableSpan[], done) {
      exported += spans.length;
      done({ code: 0 });
    },
    shutdown: async () => undefined,
  };
  const tracerProvider = new TracerProvider({
    spanProcessors: [new BatchSpanProcessor({ exporter: sink })],
  });
  const meterProvider = new MeterProvider({
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
        exportIntervalMillis: 60_000,
      }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    spans: () => exported,
    async stop() {
      await tracerProvider.forceFlush();
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}
