import { randomUUID } from 'node:crypto';
import type { AgentContext } from '@mcp-agent/core';
import type { CredentialVault, SecretBinding } from '../vault/credential-vault.js';
import type { Executor } from '../database/executor.js';
import { timestamp } from '../database/timestamp.js';

/** The row a secret belongs to. */
export interface SecretOwner {
  /** Which table that row is in: a server's connection, an OAuth account, an auth configuration. */
  readonly kind: 'connection' | 'account' | 'auth_config';
  /** That row's id, not the server's: the ciphertext is bound to it and decrypts nowhere else. */
  readonly id: string;
}

/** Encrypted secrets, always scoped by tenant and owner; plaintext never touches the database. */
export class SecretRepository {
  constructor(
    private readonly db: Executor,
    private readonly vault: CredentialVault,
  ) {}

  /** Stores (or replaces) one secret. */
  async put(
    ctx: AgentContext,
    owner: SecretOwner,
    field: string,
    value: string,
    db: Executor = this.db,
  ) {
    const { ciphertext, keyId } = this.vault.encrypt(bind(ctx, owner, field), value);
    const now = timestamp(ctx);
    await db
      .insertInto('secrets')
      .values({
        id: randomUUID(),
        user_id: ctx.userId,
        owner_kind: owner.kind,
        owner_id: owner.id,
        field,
        ciphertext,
        key_id: keyId,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'owner_kind', 'owner_id', 'field'])
          .doUpdateSet({ ciphertext, key_id: keyId, updated_at: now }),
      )
      .execute();
  }

  /** One secret, or `undefined` when none is stored; throws `CredentialError` when unreadable. */
  async get(ctx: AgentContext, owner: SecretOwner, field: string, db: Executor = this.db) {
    const row = await db
      .selectFrom('secrets')
      .select(['ciphertext'])
      .where('user_id', '=', ctx.userId)
      .where('owner_kind', '=', owner.kind)
      .where('owner_id', '=', owner.id)
      .where('field', '=', field)
      .executeTakeFirst();
    return row === undefined
      ? undefined
      : this.vault.decrypt(bind(ctx, owner, field), row.ciphertext);
  }

  /** Every secret of `owner`, by field. */
  async list(
    ctx: AgentContext,
    owner: SecretOwner,
    db: Executor = this.db,
  ): Promise<Map<string, string>> {
    const rows = await db
      .selectFrom('secrets')
      .select(['field', 'ciphertext'])
      .where('user_id', '=', ctx.userId)
      .where('owner_kind', '=', owner.kind)
      .where('owner_id', '=', owner.id)
      .execute();
    return new Map(
      rows.map((row) => [
        row.field,
        this.vault.decrypt(bind(ctx, owner, row.field), row.ciphertext),
      ]),
    );
  }

  /** Deletes one field of `owner`, or all of them; returns how many were deleted. */
  async remove(ctx: AgentContext, owner: SecretOwner, field?: string, db: Executor = this.db) {
    let query = db
      .deleteFrom('secrets')
      .where('user_id', '=', ctx.userId)
      .where('owner_kind', '=', owner.kind)
      .where('owner_id', '=', owner.id);
    if (field !== undefined) query = query.where('field', '=', field);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

function bind(ctx: AgentContext, owner: SecretOwner, field: string): SecretBinding {
  return { userId: ctx.userId, ownerKind: owner.kind, ownerId: owner.id, field };
}
