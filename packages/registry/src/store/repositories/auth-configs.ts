import { randomUUID } from 'node:crypto';
import type { AgentContext, JsonObject } from '@mcp-agent/core';
import type { AuthConfigsTable } from '../database/schema.js';
import type { Executor } from '../database/executor.js';
import { timestamp } from '../database/timestamp.js';
import type { UserRepository } from './users.js';

/** How a provider is authenticated: nothing, static secret headers/env, or OAuth. */
export type AuthKind = AuthConfigsTable['kind'];

/** A provider's auth configuration for one user; `settings` never holds secrets. */
export interface AuthConfigRecord {
  /** The row's own id (a UUID): what the vault binds a static secret or OAuth client to. */
  readonly id: string;
  /** The server this configures. */
  readonly providerId: string;
  /** `none`, `static` (secret headers or env in the vault) or `oauth`. */
  readonly kind: AuthKind;
  /** Non-secret settings (scopes, client id, authorization server); secrets are in the vault. */
  readonly settings: JsonObject;
  /** When it was first set (ISO 8601 UTC). */
  readonly createdAt: string;
  /** When it was last replaced (ISO 8601 UTC). */
  readonly updatedAt: string;
}

/** Auth configurations, one per (tenant, provider). */
export class AuthConfigRepository {
  constructor(
    private readonly db: Executor,
    private readonly users: UserRepository,
  ) {}

  /** Creates or replaces the auth configuration of `providerId`. */
  async upsert(
    ctx: AgentContext,
    input: { providerId: string; kind: AuthKind; settings?: JsonObject },
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
          provider_id: input.providerId,
          kind: input.kind,
          settings,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'provider_id'])
            .doUpdateSet({ kind: input.kind, settings, updated_at: now }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRecord(row);
    });
  }

  /** The configuration, or `undefined` (also for another tenant's provider). */
  async find(ctx: AgentContext, providerId: string): Promise<AuthConfigRecord | undefined> {
    const row = await this.db
      .selectFrom('auth_configs')
      .selectAll()
      .where('user_id', '=', ctx.userId)
      .where('provider_id', '=', providerId)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /**
   * The tenant's OAuth-configured providers, each with whether it can be used: an active account
   * holding tokens. Two queries however many providers, so availability costs the same for 1 or 100.
   */
  async oauthAuthorizations(ctx: AgentContext): Promise<Map<string, boolean>> {
    const [configured, authorised] = await Promise.all([
      this.db
        .selectFrom('auth_configs')
        .select('provider_id')
        .where('user_id', '=', ctx.userId)
        .where('kind', '=', 'oauth')
        .execute(),
      this.db
        .selectFrom('auth_configs as ac')
        .innerJoin('connected_accounts as ca', 'ca.provider_id', 'ac.provider_id')
        .innerJoin('secrets as s', 's.owner_id', 'ca.id')
        .select('ac.provider_id')
        .where('ac.user_id', '=', ctx.userId)
        .where('ca.user_id', '=', ctx.userId)
        .where('s.user_id', '=', ctx.userId)
        .where('ac.kind', '=', 'oauth')
        .where('ca.status', '=', 'active')
        .where('s.owner_kind', '=', 'account')
        .where('s.field', '=', 'oauth_tokens')
        .execute(),
    ]);
    const ready = new Set(authorised.map((row) => row.provider_id));
    return new Map(configured.map((row) => [row.provider_id, ready.has(row.provider_id)]));
  }
}

function toRecord(row: AuthConfigsTable): AuthConfigRecord {
  return {
    id: row.id,
    providerId: row.provider_id,
    kind: row.kind,
    settings: JSON.parse(row.settings) as JsonObject,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
