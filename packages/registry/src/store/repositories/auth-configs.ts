import { randomUUID } from 'node:crypto';
import type { AgentContext, JsonObject } from '@mcp-agent/core';
import type { AuthConfigsTable } from '../database/schema.js';
import type { Executor } from '../database/executor.js';
import { timestamp } from '../database/timestamp.js';
import type { UserRepository } from './users.js';

/** How a server is authenticated: nothing, static secret headers/env, or OAuth. */
export type AuthKind = AuthConfigsTable['kind'];

/** A server's auth configuration for one user; `settings` never holds secrets. */
export interface AuthConfigRecord {
  /** The row's own id (a UUID): what the vault binds a static secret or OAuth client to. */
  readonly id: string;
  /** The server this configures. */
  readonly serverId: string;
  /** `none`, `static` (secret headers or env in the vault) or `oauth`. */
  readonly kind: AuthKind;
  /** Non-secret settings (scopes, client id, authorization server); secrets are in the vault. */
  readonly settings: JsonObject;
  /** When it was first set (ISO 8601 UTC). */
  readonly createdAt: string;
  /** When it was last replaced (ISO 8601 UTC). */
  readonly updatedAt: string;
}

/** Auth configurations, one per (tenant, server). */
export class AuthConfigRepository {
  constructor(
    private readonly db: Executor,
    private readonly users: UserRepository,
  ) {}

  /** Creates or replaces the auth configuration of `serverId`. */
  async upsert(
    ctx: AgentContext,
    input: { serverId: string; kind: AuthKind; settings?: JsonObject },
  ): Promise<AuthConfigRecord> {
    return this.db.transaction().execute(async (trx) => {
      await this.users.upsert(ctx, trx);
      const now = timestamp(ctx);
      const settings = JSON.stringify(input.settings ?? {});
      const row = await trx
        .insertInto('auth_configs')
        .values({
          id: randomUUID(),
          user_id: ctx.userId,
          server_id: input.serverId,
          kind: input.kind,
          settings,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'server_id'])
            .doUpdateSet({ kind: input.kind, settings, updated_at: now }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRecord(row);
    });
  }

  /** The configuration, or `undefined` (also for another tenant's server). */
  async find(ctx: AgentContext, serverId: string): Promise<AuthConfigRecord | undefined> {
    const row = await this.db
      .selectFrom('auth_configs')
      .selectAll()
      .where('user_id', '=', ctx.userId)
      .where('server_id', '=', serverId)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /**
   * The tenant's OAuth-configured servers, each with whether it can be used: an active account
   * holding tokens. Two queries however many servers, so availability costs the same for 1 or 100.
   */
  async oauthAuthorizations(ctx: AgentContext): Promise<Map<string, boolean>> {
    const [configured, authorised] = await Promise.all([
      this.db
        .selectFrom('auth_configs')
        .select('server_id')
        .where('user_id', '=', ctx.userId)
        .where('kind', '=', 'oauth')
        .execute(),
      this.db
        .selectFrom('auth_configs as ac')
        .innerJoin('connected_accounts as ca', 'ca.server_id', 'ac.server_id')
        .innerJoin('secrets as s', 's.owner_id', 'ca.id')
        .select('ac.server_id')
        .where('ac.user_id', '=', ctx.userId)
        .where('ca.user_id', '=', ctx.userId)
        .where('s.user_id', '=', ctx.userId)
        .where('ac.kind', '=', 'oauth')
        .where('ca.status', '=', 'active')
        .where('s.owner_kind', '=', 'account')
        .where('s.field', '=', 'oauth_tokens')
        .execute(),
    ]);
    const ready = new Set(authorised.map((row) => row.server_id));
    return new Map(configured.map((row) => [row.server_id, ready.has(row.server_id)]));
  }
}

function toRecord(row: AuthConfigsTable): AuthConfigRecord {
  return {
    id: row.id,
    serverId: row.server_id,
    kind: row.kind,
    settings: JSON.parse(row.settings) as JsonObject,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
