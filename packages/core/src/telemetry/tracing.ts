import {
  context,
  INVALID_SPAN_CONTEXT,
  ProxyTracerProvider,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { promised } from '../promised.js';
import { toMcpAgentError } from '../to-mcp-agent-error.js';

/** What a span starts with: its kind and first attributes. */
export interface SpanStart {
  /** `SERVER` for a request we answer, `CLIENT` for a call we make; default `INTERNAL`. */
  readonly kind?: SpanKind;
  /** Set at the start, so samplers see them; never a secret or a user's text. */
  readonly attributes?: Attributes;
  /**
   * The trace context to start it in, and to run its work in under it; default the active one.
   * A request that continues a caller's trace passes that context here rather than entering it
   * first: the work is entered once.
   */
  readonly context?: Context;
  /**
   * Nothing its work does makes a span (a request to a server, at the end of the chain): it is
   * started (in `context` or the active one) without being entered, so its work runs in the
   * context it was called in, and entering it is spared.
   */
  readonly leaf?: boolean;
}

const TRACER_NAME = 'mcp-agent';
const TRACER_VERSION = '0.1.0';
// What `run` gets when no SDK is registered: records nothing, as the API's no-op span would.
const NOT_RECORDING: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

// The registered SDK's tracer, or `undefined` when none is: the API's global provider is its
// proxy, with nothing behind it until an application registers one. The provider behind it is
// checked per span, so an SDK registered, or unregistered and registered again, later takes
// effect at once; its tracer is kept by provider (`null`: none), as the SDK would otherwise write
// a key for every ask, and held no longer than the provider is.
const tracers = new WeakMap<object, Tracer | null>();
function sdkTracer(): Tracer | undefined {
  const global = trace.getTracerProvider();
  const proxied = global instanceof ProxyTracerProvider;
  const provider = proxied ? global.getDelegate() : global;
  let tracer = tracers.get(provider);
  if (tracer === undefined) {
    tracer =
      (proxied
        ? global.getDelegateTracer(TRACER_NAME, TRACER_VERSION)
        : global.getTracer(TRACER_NAME, TRACER_VERSION)) ?? null;
    tracers.set(provider, tracer);
  }
  return tracer ?? undefined;
}

/**
 * Whether an OpenTelemetry SDK is registered, so that spans are made: work that only feeds a
 * span (a trace context read from a request, a context value for a span processor) is skipped
 * without one.
 */
export function isTracing(): boolean {
  return sdkTracer() !== undefined;
}

// See recordInternalSpans. Kept on the process, as the tenant setting is: every copy of this
// package in a process (the compat shims may load a second one) obeys the one switch.
const INTERNAL_SPANS = Symbol.for('mcp-agent.telemetry.internal-spans');
const spanSwitch = globalThis as { [INTERNAL_SPANS]?: boolean };

/**
 * Whether spans of kind `INTERNAL` (the agent's own steps: a meta-tool, a dispatch, a task) are
 * made; `SERVER` and `CLIENT` spans (the requests answered and made) always are. An application
 * that exports no traces turns them off: nothing would read them, and each costs every call
 * that makes it (`pnpm bench gateway`). Their work then runs in the enclosing span, whose
 * children its spans become. Default on.
 */
export function recordInternalSpans(on: boolean): void {
  spanSwitch[INTERNAL_SPANS] = on;
}

/**
 * Runs `run` inside a new span that is the active one for everything it awaits, so the spans of
 * the work it starts become its children (but for a `leaf`, which is never entered). A throw
 * marks the span failed with the error's stable code (never its message, which may quote a
 * server or a user), unless its work marked it failed already ({@link markSpanFailed}), and is
 * rethrown; the span always ends. `start` may be a function, called
 * only when a span is made. Without an SDK registered no span is made at all: `run` gets a span
 * that records nothing, on the per-call path that costs nothing but this check; nor is an
 * internal one while {@link recordInternalSpans} is off.
 *
 * @throws whatever `run` throws, unchanged.
 * @example
 * ```ts
 * const tools = await inSpan('mcp_agent.search', { attributes: { 'mcp_agent.limit': 5 } }, () =>
 *   index.search(ctx, query),
 * );
 * ```
 */
export function inSpan<T>(
  name: string,
  start: SpanStart | (() => SpanStart),
  run: (span: Span) => Promise<T>,
): Promise<T> {
  const tracer = sdkTracer();
  if (tracer === undefined) return runUnrecorded(run);
  const { kind, attributes, context: parent, leaf } = typeof start === 'function' ? start() : start;
  if (spanSwitch[INTERNAL_SPANS] === false && (kind ?? SpanKind.INTERNAL) === SpanKind.INTERNAL)
    return parent === undefined
      ? runUnrecorded(run)
      : context.with(parent, () => runUnrecorded(run));
  const traced = async (span: Span) => {
    try {
      return await run(span);
    } catch (thrown) {
      // A span its work marked failed keeps that code: the work may have recorded it elsewhere
      // too (a trace log's `errorType`), and the two must agree.
      if (!markedFailed.has(span)) markSpanFailed(span, toMcpAgentError(thrown).code);
      throw thrown;
    } finally {
      span.end();
    }
  };
  const options = {
    ...(kind === undefined ? {} : { kind }),
    ...(attributes === undefined ? {} : { attributes }),
  };
  if (leaf === true) return traced(tracer.startSpan(name, options, parent));
  return parent === undefined
    ? tracer.startActiveSpan(name, options, traced)
    : tracer.startActiveSpan(name, options, parent, traced);
}

function runUnrecorded<T>(run: (span: Span) => Promise<T>): Promise<T> {
  return promised(() => run(NOT_RECORDING));
}

// The spans marked failed by their work, which a throw then leaves as they are. Kept on the
// process, as the switches are: a span marked by one copy of this package and ended by another.
const MARKED_FAILED = Symbol.for('mcp-agent.telemetry.marked-failed');
const markedSlot = globalThis as { [MARKED_FAILED]?: WeakSet<Span> };
const markedFailed = (markedSlot[MARKED_FAILED] ??= new WeakSet<Span>());

/**
 * Marks a span failed with a stable error code, for work that reports failure without throwing,
 * or that names the failure in its own terms before it throws (a JSON-RPC code): {@link inSpan}
 * then keeps this code rather than reading the error again.
 */
export function markSpanFailed(span: Span, code: string): void {
  if (!span.isRecording()) return;
  markedFailed.add(span);
  span.setAttribute('error.type', code);
  span.setStatus({ code: SpanStatusCode.ERROR, message: code });
}

/**
 * The trace context active now, to run later work in: a callback that arrives through a channel
 * the context does not follow (a worker process's message, a timer set up elsewhere) is run with
 * `within(captured, fn)` so its spans stay children of the span that started the work.
 */
export function captureTraceContext(): Context {
  return context.active();
}

/** Runs `run` with `captured` (from {@link captureTraceContext}) as the active trace context. */
export function withinTraceContext<T>(captured: Context, run: () => T): T {
  return context.with(captured, run);
}

export { SpanKind, type Attributes, type Context as TraceContext, type Span };
