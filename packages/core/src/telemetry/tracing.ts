import {
  context,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { toMcpAgentError } from '../to-mcp-agent-error.js';

/** What a span starts with: its kind and first attributes. */
export interface SpanStart {
  /** `SERVER` for a request we answer, `CLIENT` for a call we make; default `INTERNAL`. */
  readonly kind?: SpanKind;
  /** Set at the start, so samplers see them; never a secret or a user's text. */
  readonly attributes?: Attributes;
}

// A proxy until an application registers the SDK, then the SDK's tracer: packages may take it at
// import time. With no SDK every span is a no-op that records nothing.
const tracer = trace.getTracer('mcp-agent', '0.1.0');

/**
 * Runs `run` inside a new span that is the active one for everything it awaits, so the spans of
 * the work it starts become its children. A throw marks the span failed with the error's stable
 * code (never its message, which may quote a server or a user) and is rethrown; the span always
 * ends. Without an SDK registered this costs a no-op span.
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
  start: SpanStart,
  run: (span: Span) => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(
    name,
    {
      ...(start.kind === undefined ? {} : { kind: start.kind }),
      ...(start.attributes === undefined ? {} : { attributes: start.attributes }),
    },
    async (span) => {
      try {
        return await run(span);
      } catch (thrown) {
        markSpanFailed(span, toMcpAgentError(thrown).code);
        throw thrown;
      } finally {
        span.end();
      }
    },
  );
}

/** Marks a span failed with a stable error code, for work that reports failure without throwing. */
export function markSpanFailed(span: Span, code: string): void {
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
