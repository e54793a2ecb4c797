import { defineSlot, type RejectedServer, type ServerConfig } from '@mcp-agent/core';
import type { Availability } from './store/availability/availability.js';
import type { UserServerPolicy } from './store/availability/user-server-policy.js';
import type { ChangeFeed } from './store/changes/change-feed.js';
import type { Executor } from './store/database/executor.js';
import type { QuotaLimits } from './store/limits/quota-limits.js';
import type { AuditRetention } from './store/repositories/audit-log.js';
import type { Keyring } from './store/vault/secret-key.js';

/** Options of {@link Registry}. */
export interface RegistryOptions {
  /** A migrated database (see `openDatabase`); the registry closes it only through `onClose`. */
  readonly db: Executor;
  /** The keys the credential vault encrypts and decrypts with (see `loadKeyring`). */
  readonly keyring: Keyring;
  /** App servers: from config or code, visible to every user, never editable by users. */
  readonly appServers?: readonly ServerConfig[];
  /** Called by `close()`, for example to close the database. */
  readonly onClose?: () => Promise<void>;
  /**
   * What tenants may register as their own servers; default `SINGLE_USER_POLICY` (any command,
   * any URL). A multi-tenant service uses `MULTI_TENANT_POLICY` or an allowlist.
   */
  readonly userServers?: UserServerPolicy;
  /** The deployment's quotas (each tenant may have its own in `user_quotas`); default none. */
  readonly quotas?: QuotaLimits;
  /** How much of the audit log is kept; default 90 days and 10,000 entries per tenant. */
  readonly auditRetention?: AuditRetention;
  /**
   * The registry home, under which each tenant has its own folder (`tenants/<name>`) that paths
   * in its stdio servers' environment are confined to; default `MCP_AGENT_HOME` or `~/.mcp-agent`.
   */
  readonly home?: string;
  /**
   * How changes reach the registries of other processes on the same database, and theirs reach
   * this one (re-emitted on `events`); `openRegistry` gives PostgreSQL a `PostgresChangeFeed`.
   * The registry starts nothing itself, and closes the feed when it closes.
   */
  readonly changeFeed?: ChangeFeed;
}

/**
 * Where a request keeps its availability once it has it: `Registry.availability(ctx)` answers
 * from this slot when it is filled, so one request asks the database once.
 *
 * @example
 * ```ts
 * const availability = await registry.availability(ctx);
 * const scoped = ctx.with(AVAILABILITY, availability.restrictTo(['github']));
 * await registry.availability(scoped); // the restricted pass, without a query
 * ```
 */
export const AVAILABILITY = defineSlot<Availability>('availability');

/** What an import wrote. */
export interface ImportResult {
  /** Ids of the servers written, added or replaced. */
  readonly imported: readonly string[];
  /** Keys other clients use (`autoApprove`, `timeout`…) that were left out, by path. */
  readonly ignored: readonly string[];
  /** Only with `partial`: the servers left out (invalid, or refused by the policy) and why. */
  readonly rejected?: readonly RejectedServer[];
}
