import {
  createNoopMeter,
  metrics,
  type Counter,
  type Histogram,
  type Meter,
  type MeterProvider,
} from '@opentelemetry/api';

/** The metric instruments the packages record into; their names are the public contract. */
export interface Instruments {
  /**
   * Whether a metrics SDK records them: without one each is a no-op, and work that would only
   * feed them (labels, a deferred record) is skipped.
   */
  readonly recording: boolean;
  /** Tool calls sent to a server: `server`, `outcome` (`ok`, `tool_error`, `error`). */
  readonly serverCalls: Counter;
  /** Calls that failed or returned a tool error: `server`, `error.type`. */
  readonly serverErrors: Counter;
  /** Seconds per call, connecting included when it had to: `server`, `outcome`. */
  readonly serverDuration: Histogram;
  /** Connections handed to a call: `server`, `reused` (`true` when already open and ready). */
  readonly serverAcquisitions: Counter;
  /** Restarts after a server closed its connection unexpectedly: `server`. */
  readonly serverRestarts: Counter;
  /** Model tokens: `gen_ai.request.model`, `gen_ai.token.type`, and the tenant when recorded. */
  readonly modelTokens: Counter;
  /** Seconds per model request: `gen_ai.request.model`, `outcome`. */
  readonly modelDuration: Histogram;
  /** Tasks that ended: `status`. */
  readonly tasks: Counter;
  /** Seconds per task: `status`. */
  readonly taskDuration: Histogram;
  /** Sandbox runs that ended: `outcome` (`ok` or the failure kind). */
  readonly sandboxRuns: Counter;
  /** Seconds per sandbox run: `outcome`. */
  readonly sandboxDuration: Histogram;
  /** Sandbox worker processes replaced: `reason` (`max_runs`, `unsound`, `exited`, `memory`). */
  readonly sandboxWorkerRecycles: Counter;
  /** MCP requests the gateway answered: `mcp.method.name`, `gen_ai.tool.name`, `outcome`. */
  readonly gatewayRequests: Counter;
  /** Seconds per gateway MCP request, same attributes. */
  readonly gatewayDuration: Histogram;
  /**
   * Seconds per HTTP request served, until its response closed (a stream counts its whole life):
   * `http.request.method`, `http.route`, `http.response.status_code` (the OpenTelemetry HTTP
   * conventions; its count is the request count).
   */
  readonly httpDuration: Histogram;
}

/** The meter every mcp-agent instrument comes from. */
export const METER_NAME = 'mcp-agent';

// Seconds: from a fast local call to a slow remote one or a long run.
const SECONDS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

let cached: { provider: MeterProvider; instruments: Instruments } | undefined;

/**
 * The instruments, from the meter provider registered now. The metrics API has no proxy: a meter
 * taken before an application registers the SDK records nothing for ever, so instruments are
 * made again whenever the registered provider changes (one identity check per use).
 */
export function instruments(): Instruments {
  const provider = metrics.getMeterProvider();
  if (cached?.provider !== provider)
    cached = { provider, instruments: create(provider.getMeter(METER_NAME, '0.1.0')) };
  return cached.instruments;
}

function create(meter: Meter): Instruments {
  // The API hands out its one no-op meter while no SDK is registered.
  const recording = meter !== createNoopMeter();
  const seconds = (name: string, description: string) =>
    meter.createHistogram(name, {
      description,
      unit: 's',
      advice: { explicitBucketBoundaries: SECONDS },
    });
  return {
    recording,
    // The server instruments keep their first names, `mcp_agent.connector.*` (issue 31): the
    // metric names are what dashboards and alerts query; the code says "server" like the rest.
    serverCalls: meter.createCounter('mcp_agent.connector.calls', {
      description: 'Tool calls sent to an MCP server through the pool.',
    }),
    serverErrors: meter.createCounter('mcp_agent.connector.errors', {
      description: 'Tool calls that failed or came back as a tool error.',
    }),
    serverDuration: seconds(
      'mcp_agent.connector.duration',
      'Duration of a tool call through the pool, connecting included when it had to.',
    ),
    serverAcquisitions: meter.createCounter('mcp_agent.connector.acquisitions', {
      description: 'Connections handed to tool calls; reused="true" when already open and ready.',
    }),
    serverRestarts: meter.createCounter('mcp_agent.connector.restarts', {
      description: 'Restarts after an MCP server closed its connection unexpectedly.',
    }),
    modelTokens: meter.createCounter('mcp_agent.model.tokens', {
      description:
        'Model tokens, by model and token type (input, output, cache_read, cache_write).',
    }),
    modelDuration: seconds('mcp_agent.model.duration', 'Duration of one model request.'),
    tasks: meter.createCounter('mcp_agent.tasks', { description: 'Tasks that ended, by status.' }),
    taskDuration: seconds('mcp_agent.task.duration', 'Duration of a task.'),
    sandboxRuns: meter.createCounter('mcp_agent.sandbox.runs', {
      description: 'Sandbox runs that ended, by outcome.',
    }),
    sandboxDuration: seconds('mcp_agent.sandbox.duration', 'Duration of a sandbox run.'),
    sandboxWorkerRecycles: meter.createCounter('mcp_agent.sandbox.worker_recycles', {
      description: 'Sandbox worker processes replaced, by reason.',
    }),
    gatewayRequests: meter.createCounter('mcp_agent.gateway.requests', {
      description: 'MCP requests the gateway answered, by method, meta-tool and outcome.',
    }),
    gatewayDuration: seconds('mcp_agent.gateway.duration', 'Duration of a gateway MCP request.'),
    httpDuration: seconds('http.server.request.duration', 'Duration of an HTTP request served.'),
  };
}
