/**
 * One MCP request as it ended: one the gateway answered (`in`), or one sent to a server (`out`).
 * Names, sizes, outcomes and codes: never arguments or results, which may hold a user's data.
 */
export interface McpExchange {
  /** Answered by the gateway (`in`) or sent to a server (`out`). */
  readonly direction: 'in' | 'out';
  /** The user it was for. */
  readonly userId: string;
  /**
   * The request it belongs to (`AgentContext.requestId`): a gateway request's own, and that of
   * the request a call to a server was made for, so the two are read together.
   */
  readonly requestId: string;
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
  /** The request's size in UTF-8 bytes of JSON, when known. */
  readonly requestBytes?: number;
  /** The response's size in UTF-8 bytes of JSON, when known. */
  readonly responseBytes?: number;
}

/** Where the process's MCP exchanges go as they end (the server's web UI keeps a log of them). */
export interface McpTrafficObserver {
  /** Called once per exchange, synchronously at its end: keep it cheap and never throw. */
  exchanged(exchange: McpExchange): void;
}

// Kept on the process, as the tenant setting is: every copy of this package in a process (the
// compat shims may load a second one) reports to the one observer.
const OBSERVER = Symbol.for('mcp-agent.telemetry.mcp-traffic');
const slot = globalThis as { [OBSERVER]?: McpTrafficObserver };

/**
 * Sets the observer of this process's MCP traffic (`undefined`: none, the default). It is fed
 * directly, not from spans: an application that exports no traces makes no span for it, and a
 * sampler never hides a request from it.
 */
export function observeMcpTraffic(observer: McpTrafficObserver | undefined): void {
  if (observer === undefined) delete slot[OBSERVER];
  else slot[OBSERVER] = observer;
}

/**
 * The observer set by {@link observeMcpTraffic}, or `undefined`: work that only feeds it (a size,
 * a start time) is skipped without one.
 */
export function mcpTrafficObserver(): McpTrafficObserver | undefined {
  return slot[OBSERVER];
}

/** `value` written out as JSON, in UTF-8 bytes; -1 when it cannot be. */
export function jsonBytes(value: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
  } catch {
    return -1;
  }
}
