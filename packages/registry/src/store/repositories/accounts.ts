import { randomUUID } from 'node:crypto';
import type { AgentContext } from '@mcp-agent/core';
import type { ConnectedAccountsTable } from '../database/schema.js';
import type { Executor } from '../database/executor.js';
import type { SecretRepository } from './secrets.js';
import { timestamp } from '../database/timestamp.js';
import type { UserRepository } from './users.js';

/** Whether the user's account at a provider can be used. */
export type AccountStatus = ConnectedAccountsTable['status'];

/** A user's account at a provider. */
export interface AccountRecord {
  /** The row's own id (a UUID): what the vault binds the account's tokens to. */
  readonly id: string;
  /** The server the account authorises. */
  readonly providerId: string;
  /** `active`: usable; `needs_auth`: the user must authorise again; `disconnected`: no tokens. */
  readonly status: AccountStatus;
  /** The user's id at the authorisation server, when it told us; `null` otherwise. */
  readonly providerUid: string | null;
  /** When the account was first recorded (ISO 8601 UTC). */
  readonly createdAt: string;
  /** When its status last changed (ISO 8601 UTC). */
  readonly updatedAt: string;
}

/** Connected accounts (the authorisation side of a provider) and their encrypted tokens. */
export class AccountRepository {
  constructor(
    private readonly db: Executor,
    private readonly users: UserRepository,
    private readonly secrets: SecretRepository,
  ) {}

  /** Creates or updates the account for `providerId`. */
  async upsert(
    ctx: AgentContext,
    input: { providerId: string; status: AccountStatus; providerUid?: string | null },
  ): Promise<AccountRecord> {
    return this.db.transaction().execute(async (trx) => {
      await this.users.upsert(ctx, trx);
      const now = timestamp(ctx);
      const providerUid = input.providerUid ?? null;
      const row = await trx
        .insertInto('connected_accounts')
        .values({
          id: randomUUID(),
          user_id: ctx.userId,
          provider_id: input.providerId,
          status: input.status,
          provider_uid: providerUid,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'provider_id'])
            .doUpdateSet({ status: input.status, provider_uid: providerUid, updated_at: now }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRecord(row);
    });
  }

  /** The account, or `undefined` (also for another tenant's provider). */
  async find(
    ctx: AgentContext,
    providerId: string,
    db: Executor = this.db,
  ): Promise<AccountRecord | undefined> {
    const row = await db
      .selectFrom('connected_accounts')
      .selectAll()
      .where('user_id', '=', ctx.userId)
      .where('provider_id', '=', providerId)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** Stores one of the account's secrets (OAuth tokens, client registration, PKCE verifier). */
  async putSecret(
    ctx: AgentContext,
    providerId: string,
    field: string,
    value: string,
  ): Promise<void> {
    const account = await this.find(ctx, providerId);
    const record = account ?? (await this.upsert(ctx, { providerId, status: 'needs_auth' }));
    await this.secrets.put(ctx, { kind: 'account', id: record.id }, field, value);
  }

  /** One of the account's secrets, or `undefined`. */
  async getSecret(
    ctx: AgentContext,
    providerId: string,
    field: string,
  ): Promise<string | undefined> {
    const account = await this.find(ctx, providerId);
    return account && this.secrets.get(ctx, { kind: 'account', id: account.id }, field);
  }

  /** Marks the account disconnected and deletes every token; false when there was none. */
  async disconnect(ctx: AgentContext, providerId: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const account = await this.find(ctx, providerId, trx);
      if (account === undefined) return false;
      await this.secrets.remove(ctx, { kind: 'account', id: account.id }, undefined, trx);
      await trx
        .updateTable('connected_accounts')
        .set({ status: 'disconnected', updated_at: timestamp(ctx) })
        .where('user_id', '=', ctx.userId)
        .where('id', '=', account.id)
        .execute();
      return true;
    });
  }
}

function toRecord(row: ConnectedAccountsTable): AccountRecord {
  return {
    id: row.id,
    providerId: row.provider_id,
    status: row.status,
    providerUid: row.provider_uid,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
