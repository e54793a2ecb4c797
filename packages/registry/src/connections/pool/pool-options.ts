import type { Clock, Logger } from '@mcp-agent/core';
import type { OAuthService } from '../oauth/oauth-service.js';
import type { ConnectionOptions } from './connection-options.js';

/** Options of `ConnectionPool`; every field has a default. */
export interface ConnectionPoolOptions extends Partial<ConnectionOptions> {
  /**
   * Close a connection (and its child process) this long after its last request of any kind
   * (connect, list, refresh, call; pings do not count); default 10 minutes; 0 never. Checked
   * every minute (or every `idleMs`, if shorter).
   */
  readonly idleMs?: number;
  /** Most open connections; the least recently used idle one is closed first; default 500. */
  readonly maxSize?: number;
  /** Ping a connection idle this long before reusing it; default 60 s. */
  readonly pingAfterIdleMs?: number;
  /** Ping every ready connection this often; default 30 s; 0 never. */
  readonly pingIntervalMs?: number;
  /** Where connection failures, restarts and flagged tools are logged; default silent. */
  readonly logger?: Logger;
  /**
   * The clock idle time is measured on; default each connection's opener's context clock. A
   * served process makes a context per request, so its tests inject the clock here.
   */
  readonly clock?: Clock;
  /** Authorises remote servers whose auth config is `oauth`. */
  readonly oauth?: OAuthService;
}

const DEFAULTS: ConnectionOptions = {
  attempts: 3,
  backoff: { baseMs: 500, capMs: 10_000 },
  attemptTimeoutMs: 15_000,
  requestTimeoutMs: 60_000,
  maxTotalTimeoutMs: 10 * 60_000,
  maxRestarts: 5,
  breaker: { threshold: 5, openMs: 60_000 },
  clientInfo: { name: 'mcp-agent', version: '0.0.0' },
  passEnv: [],
  wire: 'lanes',
};

/** Each connection's settings: the pool's options over the defaults (an `undefined` keeps one). */
export function connectionOptions(options: ConnectionPoolOptions): ConnectionOptions {
  return { ...DEFAULTS, ...definedOnly(options) };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
