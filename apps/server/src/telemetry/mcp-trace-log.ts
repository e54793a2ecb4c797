import { createContextKey, SpanKind, type Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace';

/** One MCP request the gateway received (`in`) or sent to a server on its behalf (`out`). */
export interface McpTraceEntry {
  /** The span's id; an outgoing entry's `parentId` leads to the request that caused it. */
  readonly id: string;
  /** The trace it belongs to. */
  readonly traceId: string;
  /** The span that caused it; `null` for a request from outside. */
  readonly parentId: string | null;
  /** The user it was for (shown to that user, and to the operator). */
  readonly userId: string;
  /** Received by the gateway (`in`) or sent to a server for it (`out`). */
  readonly direction: 'in' | 'out';
  /** The MCP method: `tools/call`, `tools/list`. */
  readonly method: string;
  /** The meta-tool called on the gateway, or the server's tool called by the pool. */
  readonly name: string;
  /** The server an outgoing call went to. */
  readonly server?: string;
  /** The tool a gateway `call_tool` named. */
  readonly toolId?: string;
  /** When it started, epoch milliseconds. */
  readonly at: number;
  /** How long it took. */
  readonly durationMs: number;
  /** Whether it succeeded. */
  readonly outcome: 'ok' | 'error';
  /** The stable code or JSON-RPC code of a failure; never its message. */
  readonly errorType?: string;
  /** The request's size, when known. */
  readonly requestBytes?: number;
  /** The response's size, when known. */
  readonly responseBytes?: number;
}

/** Bounds of the log: entries kept in all, and per user. */
export interface McpTraceLogLimits {
  /** Entries kept in all, the oldest dropped first; default 5,000. */
  readonly maxEntries: number;
  /** Entries kept per user, so one user cannot push out the others'; default 500. */
  readonly maxPerUser: number;
}

/** Marks the work of one gateway request with its user, in the trace context, never on a span. */
export const GATEWAY_USER = createContextKey('mcp-agent.gateway-user');

/**
 * The gateway's MCP traffic, incoming and outgoing, for the web UI: filled from the spans as they
 * end (a span processor), so it shows exactly what tracing saw. Redacted by construction: spans
 * carry names, sizes, outcomes and codes, never arguments or results. The user comes from the
 * trace context (`GATEWAY_USER`), not from an attribute, so it is never exported. Bounded: the
 * newest `maxEntries` in all and `maxPerUser` per user.
 */
export class McpTraceLog {
  readonly #limits: McpTraceLogLimits;
  readonly #entries: McpTraceEntry[] = [];
  readonly #perUser = new Map<string, number>();
  readonly #users = new WeakMap<object, string>();

  constructor(limits: Partial<McpTraceLogLimits> = {}) {
    this.#limits = { maxEntries: 5_000, maxPerUser: 500, ...limits };
  }

  /** The span processor that feeds this log. */
  readonly processor: SpanProcessor = {
    onStart: (span: Span, parentContext: Context) => {
      const userId = parentContext.getValue(GATEWAY_USER);
      if (typeof userId === 'string' && isMcpSpan(span)) this.#users.set(span, userId);
    },
    onEnd: (span: ReadableSpan) => {
      const userId = this.#users.get(span);
      if (userId !== undefined) this.#add(toEntry(span, userId));
    },
    forceFlush: async () => undefined,
    shutdown: async () => undefined,
  };

  /** How many entries are held. */
  get size(): number {
    return this.#entries.length;
  }

  /** The newest entries first: of `userId`, or of everyone for the operator (`undefined`). */
  list(userId: string | undefined, limit = 200): McpTraceEntry[] {
    const found: McpTraceEntry[] = [];
    for (let i = this.#entries.length - 1; i >= 0 && found.length < limit; i--) {
      const entry = this.#entries[i] as McpTraceEntry;
      if (userId === undefined || entry.userId === userId) found.push(entry);
    }
    return found;
  }

  #add(entry: McpTraceEntry): void {
    const held = this.#perUser.get(entry.userId) ?? 0;
    if (held >= this.#limits.maxPerUser) {
      const oldest = this.#entries.findIndex((e) => e.userId === entry.userId);
      if (oldest >= 0) this.#remove(oldest);
    }
    this.#entries.push(entry);
    this.#perUser.set(entry.userId, (this.#perUser.get(entry.userId) ?? 0) + 1);
    while (this.#entries.length > this.#limits.maxEntries) this.#remove(0);
  }

  #remove(index: number): void {
    const [gone] = this.#entries.splice(index, 1);
    if (gone === undefined) return;
    const left = (this.#perUser.get(gone.userId) ?? 1) - 1;
    if (left > 0) this.#perUser.set(gone.userId, left);
    else this.#perUser.delete(gone.userId);
  }
}

// The gateway's own request spans, and the pool's requests to servers.
function isMcpSpan(span: Span): boolean {
  return (
    (span.kind === SpanKind.SERVER && span.attributes['mcp_agent.gateway'] === true) ||
    (span.kind === SpanKind.CLIENT && typeof span.attributes['mcp.method.name'] === 'string')
  );
}

function toEntry(span: ReadableSpan, userId: string): McpTraceEntry {
  const attributes = span.attributes;
  const text = (name: string) =>
    typeof attributes[name] === 'string' ? (attributes[name] as string) : undefined;
  const number = (name: string) =>
    typeof attributes[name] === 'number' ? (attributes[name] as number) : undefined;
  const ms = (time: readonly [number, number]) => time[0] * 1_000 + time[1] / 1e6;
  const errorType = text('error.type');
  const server = text('mcp.server');
  const toolId = text('mcp_agent.tool_id');
  const requestBytes = number('mcp_agent.request.bytes');
  const responseBytes = number('mcp_agent.response.bytes');
  return {
    id: span.spanContext().spanId,
    traceId: span.spanContext().traceId,
    parentId: span.parentSpanContext?.spanId ?? null,
    userId,
    direction: span.kind === SpanKind.SERVER ? 'in' : 'out',
    method: text('mcp.method.name') ?? 'unknown',
    name: text('gen_ai.tool.name') ?? span.name,
    ...(server === undefined ? {} : { server }),
    ...(toolId === undefined ? {} : { toolId }),
    at: Math.round(ms(span.startTime)),
    durationMs: Math.round(ms(span.duration) * 100) / 100,
    outcome: errorType === undefined ? 'ok' : 'error',
    ...(errorType === undefined ? {} : { errorType }),
    ...(requestBytes === undefined ? {} : { requestBytes }),
    ...(responseBytes === undefined ? {} : { responseBytes }),
  };
}
