import { ConfigError, type Environment, type TenantAttributeMode } from '@mcp-agent/core';

/** Which sampler decides what is recorded: the `OTEL_TRACES_SAMPLER` values this server knows. */
export type SamplerName =
  | 'always_on'
  | 'always_off'
  | 'traceidratio'
  | 'parentbased_always_on'
  | 'parentbased_always_off'
  | 'parentbased_traceidratio';

/** One OTLP destination: where, and the extra headers (an API key of the backend). */
export interface OtlpTarget {
  /** The OTLP/HTTP endpoint, signal path included. */
  readonly url: string;
  /** Sent with every export (`OTEL_EXPORTER_OTLP_HEADERS` and the signal's own). */
  readonly headers: Readonly<Record<string, string>>;
}

/** Telemetry as the standard `OTEL_*` variables (and two of ours) configure it. */
export interface TelemetryConfig {
  /** `OTEL_SDK_DISABLED=true`: no SDK at all; spans and metrics are no-ops, `/metrics` is off. */
  readonly disabled: boolean;
  /** Spans over OTLP/HTTP (JSON), when an endpoint is set and `OTEL_TRACES_EXPORTER` allows. */
  readonly traces: OtlpTarget | undefined;
  /** Metrics over OTLP/HTTP (JSON), likewise; `/metrics` serves Prometheus text either way. */
  readonly metrics: OtlpTarget | undefined;
  /** How often metrics are exported (`OTEL_METRIC_EXPORT_INTERVAL`); default 60,000. */
  readonly metricIntervalMs: number;
  /** Which traces are kept (`OTEL_TRACES_SAMPLER`); default `parentbased_always_on`. */
  readonly sampler: SamplerName;
  /** The ratio of `traceidratio` samplers, from `OTEL_TRACES_SAMPLER_ARG`; default 1. */
  readonly samplerRatio: number;
  /** `MCP_AGENT_TELEMETRY_TENANT`: `hash` (default) or `omit`. */
  readonly tenant: TenantAttributeMode;
  /** `MCP_AGENT_TELEMETRY_TENANT_KEY`: the key of tenant hashes, shared by every process. */
  readonly tenantKey: string | undefined;
}

const SAMPLERS: readonly SamplerName[] = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
];

/**
 * Reads the standard OpenTelemetry variables. OTLP export is off unless an endpoint is set
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, or the per-signal `…_TRACES_ENDPOINT` / `…_METRICS_ENDPOINT`),
 * and `OTEL_TRACES_EXPORTER` / `OTEL_METRICS_EXPORTER=none` turn a signal's export off. The
 * exporters speak OTLP over HTTP as JSON (`http/json`); another `OTEL_EXPORTER_OTLP_PROTOCOL` is
 * refused with a `ConfigError` naming the one that works, rather than silently ignored.
 */
export function readTelemetryConfig(env: Environment): TelemetryConfig {
  const value = (name: string) => {
    const raw = env[name]?.trim();
    return raw === undefined || raw === '' ? undefined : raw;
  };
  const disabled = value('OTEL_SDK_DISABLED')?.toLowerCase() === 'true';
  for (const name of [
    'OTEL_EXPORTER_OTLP_PROTOCOL',
    'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
    'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL',
  ]) {
    const protocol = value(name);
    if (protocol !== undefined && protocol !== 'http/json')
      throw new ConfigError(
        `${name}=${protocol.slice(0, 40)} is not supported: this server exports OTLP over HTTP as JSON. Set ${name}=http/json or leave it unset (collectors accept JSON on the OTLP/HTTP port, 4318).`,
      );
  }
  const target = (signal: 'traces' | 'metrics'): OtlpTarget | undefined => {
    const upper = signal.toUpperCase();
    const exporter = value(`OTEL_${upper}_EXPORTER`)?.toLowerCase();
    if (exporter !== undefined && !['otlp', 'none', 'prometheus'].includes(exporter))
      throw new ConfigError(
        `OTEL_${upper}_EXPORTER=${exporter.slice(0, 40)} is not supported here: use otlp or none${signal === 'metrics' ? ' (Prometheus text is always served at /metrics)' : ''}.`,
      );
    if (exporter === 'none' || exporter === 'prometheus') return undefined;
    const own = value(`OTEL_EXPORTER_OTLP_${upper}_ENDPOINT`);
    const base = value('OTEL_EXPORTER_OTLP_ENDPOINT');
    // No endpoint: off, unless the exporter was asked for by name (then the spec's default).
    const url =
      own ??
      (base !== undefined
        ? `${base.replace(/\/+$/, '')}/v1/${signal}`
        : exporter === 'otlp'
          ? `http://localhost:4318/v1/${signal}`
          : undefined);
    if (url === undefined) return undefined;
    const variable =
      own !== undefined ? `OTEL_EXPORTER_OTLP_${upper}_ENDPOINT` : 'OTEL_EXPORTER_OTLP_ENDPOINT';
    if (!/^https?:\/\//i.test(url))
      throw new ConfigError(`${variable} must be an http:// or https:// URL.`);
    return {
      url,
      headers: {
        ...parseHeaders(value('OTEL_EXPORTER_OTLP_HEADERS'), 'OTEL_EXPORTER_OTLP_HEADERS'),
        ...parseHeaders(
          value(`OTEL_EXPORTER_OTLP_${upper}_HEADERS`),
          `OTEL_EXPORTER_OTLP_${upper}_HEADERS`,
        ),
      },
    };
  };
  const sampler = (value('OTEL_TRACES_SAMPLER')?.toLowerCase() ??
    'parentbased_always_on') as SamplerName;
  if (!SAMPLERS.includes(sampler))
    throw new ConfigError(
      `OTEL_TRACES_SAMPLER=${sampler.slice(0, 40)} is not supported: use one of ${SAMPLERS.join(', ')}.`,
    );
  const ratioText = value('OTEL_TRACES_SAMPLER_ARG');
  const samplerRatio = ratioText === undefined ? 1 : Number(ratioText);
  if (sampler.endsWith('traceidratio') && !(samplerRatio >= 0 && samplerRatio <= 1))
    throw new ConfigError('OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1.');
  const intervalText = value('OTEL_METRIC_EXPORT_INTERVAL');
  const metricIntervalMs = intervalText === undefined ? 60_000 : Number(intervalText);
  if (!Number.isInteger(metricIntervalMs) || metricIntervalMs < 1_000)
    throw new ConfigError('OTEL_METRIC_EXPORT_INTERVAL must be whole milliseconds, at least 1000.');
  const tenant = (value('MCP_AGENT_TELEMETRY_TENANT')?.toLowerCase() ??
    'hash') as TenantAttributeMode;
  if (tenant !== 'hash' && tenant !== 'omit')
    throw new ConfigError(
      'MCP_AGENT_TELEMETRY_TENANT must be "hash" (a keyed hash of the user id) or "omit" (no tenant on spans and metrics).',
    );
  return {
    disabled,
    traces: disabled ? undefined : target('traces'),
    metrics: disabled ? undefined : target('metrics'),
    metricIntervalMs,
    sampler,
    samplerRatio,
    tenant,
    tenantKey: value('MCP_AGENT_TELEMETRY_TENANT_KEY'),
  };
}

// `key=value,key2=value2`, values percent-encoded (the OTLP exporter specification's format).
function parseHeaders(text: string | undefined, name: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    if (pair.trim() === '') continue;
    const index = pair.indexOf('=');
    if (index <= 0) throw new ConfigError(`${name} is a list of key=value pairs, comma-separated.`);
    try {
      headers[decodeURIComponent(pair.slice(0, index).trim()).toLowerCase()] = decodeURIComponent(
        pair.slice(index + 1).trim(),
      );
    } catch {
      throw new ConfigError(`${name} has a value that is not valid percent-encoding.`);
    }
  }
  return headers;
}
