/**
 * Readiness of one (tenant, server) connection: `needs_auth` when the server refused the
 * attempt with 401 or 403, which only signing in can change.
 */
export type ReadinessStatus = 'pending' | 'connecting' | 'ready' | 'failed' | 'needs_auth';

/** What everyone can see of a connection. */
export interface ConnectionState {
  readonly userId: string;
  readonly serverId: string;
  readonly status: ReadinessStatus;
  /** Attempts of the current (or last) discovery. */
  readonly attempts: number;
  readonly lastError: string | null;
  /** `null` until a discovery succeeded; `0` when the server listed no tools. */
  readonly toolCount: number | null;
  /** The catalog version the last discovery stored; `null` before the first. */
  readonly catalogVersion: number | null;
  readonly discoveredAt: number | null;
  readonly breaker: 'closed' | 'open' | 'half-open';
}

/** Per-connection counters for status views. */
export interface ConnectionMetrics {
  readonly calls: number;
  readonly errors: number;
  /** When the last tool call ended. */
  readonly lastUsedAt: number | null;
  /**
   * When the last request of any kind was made: the connect, a tools/list (discovery or a
   * refresh after list_changed), a tool call; never a ping. Idle time counts from here.
   */
  readonly lastActiveAt: number;
  readonly lastLatencyMs: number | null;
  readonly meanLatencyMs: number | null;
}
