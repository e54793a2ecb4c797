/**
 * Readiness of one (tenant, server) connection: `needs_auth` when the server refused the
 * attempt with 401 or 403, which only signing in can change.
 */
export type ReadinessStatus = 'pending' | 'connecting' | 'ready' | 'failed' | 'needs_auth';

/** What everyone can see of a connection. */
export interface ConnectionState {
  /** The tenant the connection belongs to: connections are never shared between tenants. */
  readonly userId: string;
  /** The server it connects to. */
  readonly serverId: string;
  /** Where it stands: only `ready` takes calls. */
  readonly status: ReadinessStatus;
  /** Attempts of the current (or last) discovery. */
  readonly attempts: number;
  /** Why the last attempt failed, as the server or transport said; `null` after a success. */
  readonly lastError: string | null;
  /** `null` until a discovery succeeded; `0` when the server listed no tools. */
  readonly toolCount: number | null;
  /** The catalog version the last discovery stored; `null` before the first. */
  readonly catalogVersion: number | null;
  /** When the last discovery succeeded (epoch ms, the context's clock); `null` before. */
  readonly discoveredAt: number | null;
  /** The circuit breaker: `open` fails calls fast; `half-open` lets one probe through. */
  readonly breaker: 'closed' | 'open' | 'half-open';
}

/** Per-connection counters for status views. */
export interface ConnectionMetrics {
  /** Requests made since the connection opened: tool calls, resource lists and reads. */
  readonly calls: number;
  /** Of those, the ones that threw (a timeout, a transport or protocol error). */
  readonly errors: number;
  /** When the last tool call ended (epoch ms); `null` before the first. */
  readonly lastUsedAt: number | null;
  /**
   * When the last request of any kind was made: the connect, a tools/list (discovery or a
   * refresh after list_changed), a tool call; never a ping. Idle time counts from here.
   */
  readonly lastActiveAt: number;
  /** How long the last measured request took, in ms; `null` before the first. */
  readonly lastLatencyMs: number | null;
  /** The mean over every measured request, in ms; `null` before the first. */
  readonly meanLatencyMs: number | null;
}
