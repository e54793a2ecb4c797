import { afterTurn } from '../after-turn.js';
import { toMcpAgentError } from '../to-mcp-agent-error.js';
import { instruments } from './instruments.js';
import { jsonBytes, mcpTrafficObserver, type McpExchange } from './mcp-traffic.js';
import { inSpan, markSpanFailed, type Span, type SpanStart } from './tracing.js';

/** How a traced call ended: `tool_error` is an answer with `isError: true`, `error` a throw. */
export type CallOutcome = 'ok' | 'tool_error' | 'error';

/** One traced call as it ended, for the metrics a caller keeps (see {@link TracedCall.count}). */
export interface CallEnd {
  /** How it ended. */
  readonly outcome: CallOutcome;
  /** The code the span was marked failed with (`tool_error`, or the throw's); absent when ok. */
  readonly errorType: string | undefined;
  /** How long it took, in milliseconds. */
  readonly durationMs: number;
}

/** Who an exchange was for and what it was: the traffic observer's fields a call knows first. */
export type ExchangeIdentity = Pick<
  McpExchange,
  'direction' | 'userId' | 'requestId' | 'method' | 'name' | 'server' | 'toolId'
>;

/** What {@link tracedCall} needs to know of one call. */
export interface TracedCall<T> {
  /** The span's name (the MCP conventions: `tools/call <tool>`). */
  readonly name: string;
  /** The span's kind, attributes and context; called only when a span is made. */
  readonly start: () => SpanStart;
  /** The request's arguments: sized on a span that records and for the traffic observer. */
  readonly arguments?: unknown;
  /** The answer's size in bytes; default its JSON's (`jsonBytes`). */
  readonly responseBytes?: (result: T) => number;
  /** The `error.type` of a throw; default the error's stable code (`toMcpAgentError`). */
  readonly errorType?: (thrown: unknown) => string;
  /**
   * What the MCP traffic observer is told the call was (it is told nothing without); called
   * only while an observer is set, after the turn.
   */
  readonly exchange?: () => ExchangeIdentity;
  /** Records the call's metrics; called only while they record. Never throws. */
  readonly count?: (end: CallEnd) => void;
}

/**
 * Runs one MCP request — one the gateway answers, or one the pool sends — in a span with its
 * sizes and outcome (`mcp_agent.request.bytes`, `mcp_agent.response.bytes`, `mcp_agent.outcome`,
 * `error.type`); once the turn that answered it is over (`afterTurn`), so that none of it delays
 * the answer, its metrics are counted (`call.count`) and the MCP traffic observer is told of it
 * (`call.exchange`). A failure's code is read once: the span and the observer (the server's
 * trace log) carry the same `errorType`. Callers check `isTelemetryObserved()` first, and run the request
 * as it is when nothing reads any of it.
 *
 * @throws whatever `run` throws, unchanged.
 * @example
 * ```ts
 * return tracedCall(
 *   {
 *     name: `tools/call ${tool}`,
 *     start: () => ({ kind: SpanKind.CLIENT, attributes: { 'mcp.method.name': 'tools/call' } }),
 *     arguments: args,
 *     count: (end) => instruments().serverCalls.add(1, { server, outcome: end.outcome }),
 *   },
 *   () => send({ method: 'tools/call', params: { name: tool, arguments: args } }),
 * );
 * ```
 */
export function tracedCall<T extends object>(
  call: TracedCall<T>,
  run: (span: Span) => Promise<T>,
): Promise<T> {
  return inSpan(call.name, call.start, async (span) => {
    // Sizes cost a serialisation: on the span only while it records, and written once when
    // the observer is told of them too.
    const recording = span.isRecording();
    let requestBytes =
      recording && call.arguments !== undefined ? jsonBytes(call.arguments) : undefined;
    if (requestBytes !== undefined) span.setAttribute('mcp_agent.request.bytes', requestBytes);
    const at = Date.now();
    const started = performance.now();
    let outcome: CallOutcome = 'error';
    let errorType: string | undefined;
    let result: T | undefined;
    let responseBytes: number | undefined;
    const sizeOf = call.responseBytes ?? jsonBytes;
    try {
      result = await run(span);
      outcome = (result as { isError?: unknown }).isError === true ? 'tool_error' : 'ok';
      if (outcome === 'tool_error') {
        errorType = 'tool_error';
        markSpanFailed(span, errorType);
      }
      if (recording) {
        responseBytes = sizeOf(result);
        span.setAttribute('mcp_agent.response.bytes', responseBytes);
      }
      return result;
    } catch (thrown) {
      errorType =
        call.errorType === undefined ? toMcpAgentError(thrown).code : call.errorType(thrown);
      // Marked here, so `inSpan` keeps this code rather than reading the error again.
      markSpanFailed(span, errorType);
      throw thrown;
    } finally {
      const durationMs = performance.now() - started;
      span.setAttribute('mcp_agent.outcome', outcome);
      const metrics = instruments().recording ? call.count : undefined;
      const observer = call.exchange === undefined ? undefined : mcpTrafficObserver();
      if (metrics !== undefined || observer !== undefined) {
        const answered = result;
        afterTurn(() => {
          metrics?.({ outcome, errorType, durationMs });
          if (observer === undefined || call.exchange === undefined) return;
          const identity = call.exchange();
          requestBytes ??= call.arguments === undefined ? undefined : jsonBytes(call.arguments);
          if (answered !== undefined) responseBytes ??= sizeOf(answered);
          observer.exchanged({
            ...identity,
            at,
            durationMs,
            outcome: errorType === undefined ? 'ok' : 'error',
            ...(errorType === undefined ? {} : { errorType }),
            ...(requestBytes === undefined ? {} : { requestBytes }),
            ...(responseBytes === undefined ? {} : { responseBytes }),
          });
        });
      }
    }
  });
}
