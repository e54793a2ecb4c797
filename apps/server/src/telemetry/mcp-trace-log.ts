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
  /** Every entry by its sequence number; insertion order is age, the first is the oldest. */
  readonly #entries = new Map<number, McpTraceEntry>();
  /** Each user's sequence numbers, oldest first from `head`: eviction is O(1), not a scan. */
  readonly #perUser = new Map<string, { seqs: number[]; head: number }>();
  readonly #users = new WeakMap<object, string>();
  #seq = 0;

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
    return this.#entries.size;
  }

  /** The newest entries first: of `userId`, or of everyone for the operator (`undefined`). */
  list(userId: string | undefined, limit = 200): McpTraceEntry[] {
    const found: McpTraceEntry[] = [];
    if (userId === undefined) {
      const all = [...this.#entries.values()];
      for (let i = all.length - 1; i >= 0 && found.length < limit; i--)
        found.push(all[i] as McpTraceEntry);
      return found;
    }
    const queue = this.#perUser.get(userId);
    if (queue === undefined) return found;
    for (let i = queue.seqs.length - 1; i >= queue.head && found.length < limit; i--)
      found.push(this.#entries.get(queue.seqs[i] as number) as McpTraceEntry);
    return found;
  }

  #add(entry: McpTraceEntry): void {
    const held = this.#perUser.get(entry.userId);
    if (held !== undefined && held.seqs.length - held.head >= this.#limits.maxPerUser)
      this.#dropOldest(entry.userId);
    let queue = this.#perUser.get(entry.userId);
    if (queue === undefined) {
      queue = { seqs: [], head: 0 };
      this.#perUser.set(entry.userId, queue);
    }
    this.#seq += 1;
    this.#entries.set(this.#seq, entry);
    queue.seqs.push(this.#seq);
    while (this.#entries.size > this.#limits.maxEntries) {
      // The oldest entry of all is the oldest of its user.
      const oldest = this.#entries.values().next().value as McpTraceEntry;
      this.#dropOldest(oldest.userId);
    }
  }

  #dropOldest(userId: string): void {
    const queue = this.#perUser.get(userId);
    if (queue === undefined || queue.head === queue.seqs.length) return;
    this.#entries.delete(queue.seqs[queue.head] as number);
    queue.head += 1;
    if (queue.head === queue.seqs.length) this.#perUser.delete(userId);
    else if (queue.head > 64 && queue.head * 2 > queue.seqs.length) {
      queue.seqs = queue.seqs.slice(queue.head);
      queue.head = 0;
    }
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
