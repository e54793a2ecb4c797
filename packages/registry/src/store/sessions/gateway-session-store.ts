import { createHash } from 'node:crypto';
import type { AgentContext } from '@mcp-agent/core';

/** What the client said of itself when it opened a gateway session (its `initialize`). */
export interface GatewaySessionClient {
  /** The client's `capabilities`. */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** The client's `clientInfo` (name, version, …). */
  readonly clientInfo: Readonly<Record<string, unknown>>;
}

/** A gateway session as stored: what any process needs to serve its next request. */
export interface GatewaySessionRecord {
  /** The user who opened it: the only one who may use it. */
  readonly userId: string;
  /** The protocol version negotiated at `initialize`. */
  readonly protocolVersion: string;
  /** What the client said of itself at `initialize`. */
  readonly client: GatewaySessionClient;
  /** What search_tools said it searches, as last told to the client; '' before the first. */
  readonly searchScope: string;
  /** The tools described in the session (on any process), in no particular order. */
  readonly described: readonly string[];
  /** When it was opened (ms since the epoch). */
  readonly createdAt: number;
  /** Its last use as last written (behind, so up to the writer's interval old). */
  readonly lastUsedAt: number;
}

/** The outcome of {@link GatewaySessionStore.admit}. */
export type GatewaySessionAdmission =
  | {
      /** Admitted: the session may open. */
      readonly admitted: true;
    }
  | {
      /** Refused: the user's cap is reached. */
      readonly admitted: false;
      /** The user's live sessions, counted over every process. */
      readonly open: number;
    };

/** The bounds a session is admitted and kept under. */
export interface GatewaySessionLimits {
  /** Live sessions per user, over every process. */
  readonly maxPerUser: number;
  /** A session not used for this long is gone (found by none, swept). */
  readonly idleMs: number;
}

/**
 * Gateway sessions in the database, so that any process serves a session's next request: each
 * method takes the context and touches only its tenant's rows (but `existing` and `sweep`,
 * a process's housekeeping). Sessions are stored under the SHA-256 of their id, never the id.
 * `GatewaySessionRepository` is the implementation over the registry's database;
 * `MemoryGatewaySessionStore` (`@mcp-agent/registry/testing`) the in-memory double.
 */
export interface GatewaySessionStore {
  /**
   * Records a new session of the context's user, unless the user already has `maxPerUser` live
   * ones (counted over every process, under a per-user lock so a burst cannot pass the cap).
   * Its protocol version is '' (not found by `find`) until {@link initialized}.
   */
  admit(
    ctx: AgentContext,
    sessionId: string,
    limits: GatewaySessionLimits,
  ): Promise<GatewaySessionAdmission>;
  /** Records what `initialize` settled: from now on, `find` returns the session. */
  initialized(
    ctx: AgentContext,
    sessionId: string,
    init: { readonly protocolVersion: string; readonly client: GatewaySessionClient },
  ): Promise<void>;
  /**
   * The user's live, initialized session by id, with the tools it described; `undefined` when
   * unknown, not initialized, idle past `idleMs`, or another user's.
   */
  find(
    ctx: AgentContext,
    sessionId: string,
    idleMs: number,
  ): Promise<GatewaySessionRecord | undefined>;
  /**
   * Whether a session by this id exists and belongs to another user: asked only after `find`
   * found none, to log the attempt (the caller gets the same answer as for an unknown id).
   */
  heldByAnother(ctx: AgentContext, sessionId: string): Promise<boolean>;
  /** The tools described in the user's session, on any process. */
  described(ctx: AgentContext, sessionId: string): Promise<string[]>;
  /** Adds tools described in the user's session (kept once each). */
  addDescribed(ctx: AgentContext, sessionId: string, toolIds: readonly string[]): Promise<void>;
  /** Records what search_tools now says it searches. */
  setSearchScope(ctx: AgentContext, sessionId: string, scope: string): Promise<void>;
  /** Records a use of the session at `at` (ms), if later than the one recorded. */
  touch(ctx: AgentContext, sessionId: string, at: number): Promise<void>;
  /** Deletes the user's session and its tools; whether there was one. */
  remove(ctx: AgentContext, sessionId: string): Promise<boolean>;
  /**
   * Which of `sessionIds` still exist (of any user): what a process asks of the sessions it
   * holds, to drop those deleted or expired elsewhere. Housekeeping, not tenant-scoped.
   */
  existing(sessionIds: readonly string[]): Promise<Set<string>>;
  /**
   * Deletes sessions (of every user) last used before `before` (ms), at most `limit` (default
   * 1,000) at a time; how many. Housekeeping, not tenant-scoped.
   */
  sweep(before: number, limit?: number): Promise<number>;
}

/** The key a session is stored under: the hex SHA-256 of its id. */
export function sessionKey(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex');
}
