import { ConfigError, toJsonSafe, type AgentContext, type JsonObject } from '@mcp-agent/core';
import type { Executor } from '../database/executor.js';
import { timestamp } from '../database/timestamp.js';

/** What was done to a tenant's servers. */
export type AuditAction =
  | 'server.added'
  | 'server.updated'
  | 'server.removed'
  | 'server.enabled'
  | 'server.disabled'
  | 'oauth.signed_in'
  | 'oauth.disconnected'
  | 'token.added'
  | 'token.revoked';

/** One act, as recorded. */
export interface AuditEntry {
  /** Its place in the log: larger is later. */
  readonly seq: number;
  /** The tenant whose servers were acted on. */
  readonly userId: string;
  /** Who acted: the tenant, or the operator acting for them (`operator`). */
  readonly actor: string;
  /** What was done. */
  readonly action: AuditAction;
  /** The server acted on; `null` for acts on no one server. */
  readonly serverId: string | null;
  /** What else the act said (a transport, a token's id): never a secret. */
  readonly detail: JsonObject;
  /** The request it was part of: the key into the logs. */
  readonly requestId: string;
  /** When (ISO 8601 UTC, the context's clock). */
  readonly at: string;
}

/** What one act says; the tenant, request and time come from the context. */
export interface AuditRecord {
  /** What was done. */
  readonly action: AuditAction;
  /** The server acted on, when there is one. */
  readonly serverId?: string;
  /** What else to say, made JSON-safe; never put a secret here: tenants read their log. */
  readonly detail?: JsonObject;
  /** Default the tenant itself. */
  readonly actor?: string;
}

/** How much of the log is kept: both bounds hold, per tenant and in time. */
export interface AuditRetention {
  /** Entries older than this are deleted; default 90 days. */
  readonly maxAgeMs?: number;
  /** Only the newest this many entries of each tenant are kept; default 10,000. */
  readonly maxPerUser?: number;
}

/** The defaults of {@link AuditRetention}. */
export const DEFAULT_AUDIT_RETENTION: Required<AuditRetention> = {
  maxAgeMs: 90 * 24 * 3_600_000,
  maxPerUser: 10_000,
};

/** A page of the log, newest first. */
export interface AuditQuery {
  /** 1-1,000; default 100. */
  readonly limit?: number;
  /** Entries before this `seq` (the next page). */
  readonly before?: number;
}

/**
 * The audit log of who did what to whose servers (added, updated, removed, enabled or disabled
 * a server, signed in to its OAuth server or disconnected it, added or revoked a token), one
 * row per act in the tenant's rows. Bounded: each write keeps the tenant's newest
 * `maxPerUser` entries, and `prune` deletes those past `maxAgeMs`. A tenant reads its own log;
 * the operator reads anyone's (`forOperator`).
 */
export class AuditLogRepository {
  /** The bounds in force: the given ones over {@link DEFAULT_AUDIT_RETENTION}. */
  readonly retention: Required<AuditRetention>;

  /** @throws ConfigError (`CONFIG_INVALID`) when a retention bound is not a whole number ≥ 1. */
  constructor(
    private readonly db: Executor,
    retention: AuditRetention = {},
  ) {
    this.retention = { ...DEFAULT_AUDIT_RETENTION, ...retention };
    for (const [name, value] of Object.entries(this.retention))
      if (!Number.isInteger(value) || value < 1)
        throw new ConfigError(
          `The audit retention's ${name} is a positive whole number; got ${String(value)}.`,
        );
  }

  /** Records one act on the tenant's servers, then holds the tenant's entries to both bounds. */
  async record(ctx: AgentContext, entry: AuditRecord): Promise<void> {
    await this.db
      .insertInto('audit_log')
      .values({
        user_id: ctx.userId,
        actor: entry.actor ?? ctx.userId,
        action: entry.action,
        server_id: entry.serverId ?? null,
        detail: JSON.stringify(toJsonSafe(entry.detail ?? {})),
        request_id: ctx.requestId,
        created_at: timestamp(ctx),
      })
      .execute();
    // The tenant's entries past the age bound go, and past the count bound: its entry at the
    // bound, if any, is the oldest kept.
    await this.db
      .deleteFrom('audit_log')
      .where('user_id', '=', ctx.userId)
      .where('created_at', '<', new Date(ctx.clock.now() - this.retention.maxAgeMs).toISOString())
      .execute();
    const edge = await this.db
      .selectFrom('audit_log')
      .select('seq')
      .where('user_id', '=', ctx.userId)
      .orderBy('seq', 'desc')
      .offset(this.retention.maxPerUser - 1)
      .limit(1)
      .executeTakeFirst();
    if (edge !== undefined)
      await this.db
        .deleteFrom('audit_log')
        .where('user_id', '=', ctx.userId)
        .where('seq', '<', edge.seq as number)
        .execute();
  }

  /** The tenant's own entries, newest first. */
  async list(ctx: AgentContext, query: AuditQuery = {}): Promise<AuditEntry[]> {
    return this.#page(ctx.userId, query);
  }

  /**
   * The operator's reading: `userId`'s entries (any tenant), newest first. Never expose it to
   * a tenant's request: it answers for whoever is named.
   */
  async forOperator(userId: string, query: AuditQuery = {}): Promise<AuditEntry[]> {
    return this.#page(userId, query);
  }

  /** Deletes every tenant's entries older than `maxAgeMs` before `now`; returns how many. */
  async prune(now: number): Promise<number> {
    const before = new Date(now - this.retention.maxAgeMs).toISOString();
    const result = await this.db
      .deleteFrom('audit_log')
      .where('created_at', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async #page(userId: string, query: AuditQuery): Promise<AuditEntry[]> {
    const limit = Math.min(Math.max(1, Math.floor(query.limit ?? 100)), 1_000);
    let select = this.db.selectFrom('audit_log').selectAll().where('user_id', '=', userId);
    if (query.before !== undefined) select = select.where('seq', '<', query.before);
    const rows = await select.orderBy('seq', 'desc').limit(limit).execute();
    return rows.map((row) => ({
      seq: Number(row.seq),
      userId: row.user_id,
      actor: row.actor,
      action: row.action as AuditAction,
      serverId: row.server_id,
      detail: JSON.parse(row.detail) as JsonObject,
      requestId: row.request_id,
      at: row.created_at,
    }));
  }
}
