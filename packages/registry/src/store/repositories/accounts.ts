import { randomUUID } from 'node:crypto';
import type { AgentContext } from '@mcp-agent/core';
import type { ConnectedAccountsTable } from '../database/schema.js';
import type { Executor } from '../database/executor.js';
import type { SecretRepository } from './secrets.js';
import { timestamp } from '../database/timestamp.js';
import type { UserRepository } from './users.js';

/** Whether the user's account at a server can be used. */
export type AccountStatus = ConnectedAccountsTable['status'];

/** A user's account at a server. */
export interface AccountRecord {
  /** The row's own id (a UUID): what the vault binds the account's tokens to. */
  readonly id: string;
  /** The server the account authorises. */
  readonly serverId: string;
  /** `active`: usable; `needs_auth`: the user must authorise again; `disconnected`: no tokens. */
  readonly status: AccountStatus;
  /** The user's id at the authorisation server, when it told us; `null` otherwise. */
  readonly providerUid: string | null;
  /** When the account was first recorded (ISO 8601 UTC). */
  readonly createdAt: string;
  /** When its status last changed (ISO 8601 UTC). */
  readonly updatedAt: string;
}

/** Connected accounts (the authorisation side of a server) and their encrypted tokens. */
export class AccountRepository {
  constructor(
    private readonly db: Executor,
    private readonly users: UserRepository,
    private readonly secrets: SecretRepository,
  ) {}

  /** Creates or updates the account for `serverId`. */
  async upsert(
    ctx: AgentContext,
    input: { serverId: string; status: AccountStatus; providerUid?: string | null },
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
          server_id: input.serverId,
          status: input.status,
          provider_uid: providerUid,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'server_id'])
            .doUpdateSet({ status: input.status, provider_uid: providerUid, updated_at: now }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRecord(row);
    });
  }

  /** The account, or `undefined` (also for another tenant's server). */
  async find(
    ctx: AgentContext,
    serverId: string,
    db: Executor = this.db,
  ): Promise<AccountRecord | undefined> {
    const row = await db
      .selectFrom('connected_accounts')
      .selectAll()
      .where('user_id', '=', ctx.userId)
      .where('server_id', '=', serverId)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** Stores one of the account's secrets (OAuth tokens, client registration, PKCE verifier). */
  async putSecret(
    ctx: AgentContext,
    serverId: string,
    field: string,
    value: string,
  ): Promise<void> {
    const account = await this.find(ctx, serverId);
    const record = account ?? (await this.upsert(ctx, { serverId, status: 'needs_auth' }));
    await this.secrets.put(ctx, { kind: 'account', id: record.id }, field, value);
  }

  /** One of the account's secrets, or `undefined`. */
  async getSecret(ctx: AgentContext, serverId: string, field: string): Promise<string | undefined> {
    const account = await this.find(ctx, serverId);
    return account && this.secrets.get(ctx, { kind: 'account', id: account.id }, field);
  }

  /** Marks the account disconnected and deletes every token; false when there was none. */
  async disconnect(ctx: AgentContext, serverId: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const account = await this.find(ctx, serverId, trx);
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
    serverId: row.server_id,
    status: row.status,
    providerUid: row.provider_uid,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
