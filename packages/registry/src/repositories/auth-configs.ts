import { randomUUID } from 'node:crypto';
import type { AgentContext, JsonObject } from '@mcp-agent/core';
import type { AuthConfigsTable } from '../database/schema.js';
import type { Executor } from '../database/executor.js';
import { timestamp } from '../database/timestamp.js';
import type { UserRepository } from '../repositories/users.js';

/** How a provider is authenticated: nothing, static secret headers/env, or OAuth. */
export type AuthKind = AuthConfigsTable['kind'];

/** A provider's auth configuration for one user; `settings` never holds secrets. */
export interface AuthConfigRecord {
  readonly id: string;
  readonly providerId: string;
  readonly kind: AuthKind;
  readonly settings: JsonObject;
  readonly createdAt: string;
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
   * holding tokens. One query for every provider, so availability costs the same for 1 or 100.
   */
  async oauthAuthorizations(ctx: AgentContext): Promise<Map<string, boolean>> {
    const rows = await this.db
      .selectFrom('auth_configs as ac')
      .leftJoin('connected_accounts as ca', (join) =>
        join.onRef('ca.user_id', '=', 'ac.user_id').onRef('ca.provider_id', '=', 'ac.provider_id'),
      )
      .leftJoin('secrets as s', (join) =>
        join
          .onRef('s.user_id', '=', 'ac.user_id')
          .onRef('s.owner_id', '=', 'ca.id')
          .on('s.owner_kind', '=', 'account')
          .on('s.field', '=', 'oauth_tokens'),
      )
      .select(['ac.provider_id', 'ca.status', 's.id as token_id'])
      .where('ac.user_id', '=', ctx.userId)
      .where('ac.kind', '=', 'oauth')
      .execute();
    return new Map(
      rows.map((row) => [row.provider_id, row.status === 'active' && row.token_id !== null]),
    );
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
