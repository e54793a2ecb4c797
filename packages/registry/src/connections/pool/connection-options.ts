import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import type { BackoffOptions } from '@mcp-agent/core';
import type { WireMode } from '@mcp-agent/wire';
import type { CatalogUpdate } from '../../store/repositories/tool-catalog.js';
import type { ConnectionState } from '../../store/readiness/connection-state.js';
import type { RecordedState } from './pool-store.js';
import type { CircuitBreakerOptions } from './circuit-breaker.js';

/** Discovery and request settings of one connection. */
export interface ConnectionOptions {
  /** Discovery attempts before `failed`; default 3. */
  readonly attempts: number;
  /** Delay between discovery attempts and restarts (full jitter); default 500 ms base, 10 s cap. */
  readonly backoff: BackoffOptions;
  /** Initialize + tools/list must finish within this, per attempt; default 15 s. */
  readonly attemptTimeoutMs: number;
  /** Per-request timeout (reset by progress); default 60 s. */
  readonly requestTimeoutMs: number;
  /** Ceiling on a request even while progress keeps arriving; default 10 min. */
  readonly maxTotalTimeoutMs: number;
  /** Restarts after an unexpected exit before giving up as `failed`; default 5. */
  readonly maxRestarts: number;
  /** When calls fail fast: default open after 5 failures in a row, for 60 s. */
  readonly breaker: CircuitBreakerOptions;
  /** How this client introduces itself in `initialize`; default `mcp-agent` `0.0.0`. */
  readonly clientInfo: {
    /** The client's name, as servers log it. */
    readonly name: string;
    /** The client's version. */
    readonly version: string;
  };
  /** Host variables stdio servers get when set (see `DEFAULT_PASSED_ENV`); default none. */
  readonly passEnv: readonly string[];
  /**
   * `lanes` (default): tool calls on `@mcp-agent/wire`'s request lane, stdio servers through its
   * `ProcessTransport`. `sdk`: the MCP SDK alone (its client transports, `Client.request`).
   */
  readonly wire: WireMode;
}

/** Options of one tool call. */
export interface CallOptions {
  /** Aborts the call: the server is sent `notifications/cancelled` and the call rejects. */
  readonly signal?: AbortSignal;
  /**
   * How long the request may go without an answer or progress; default the server's
   * `timeoutMs`, else the pool's `requestTimeoutMs`. Progress resets it.
   */
  readonly timeoutMs?: number;
  /** Called with each progress notification the server sends for this call. */
  readonly onProgress?: (progress: Progress) => void;
  /** Run the call as an MCP task (for tools whose `execution.taskSupport` is `required`). */
  readonly task?: boolean;
}

/** Hooks the pool gives each connection. */
export interface ConnectionHooks {
  /** Called on each change of the connection's state, so the pool can record it. */
  readonly onState: (state: ConnectionState) => void;
  /** Called after the server's tool list was read again and stored, with what changed. */
  readonly onToolsChanged: (update: CatalogUpdate) => void;
  /** For OAuth servers: a fetch that adds the tenant's bearer token and refreshes it. */
  readonly fetch?: typeof fetch;
  /** The state last recorded for this (tenant, server), by this process or another. */
  readonly lastState?: RecordedState;
}
