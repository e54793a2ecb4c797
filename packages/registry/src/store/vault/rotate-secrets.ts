import type { Kysely } from 'kysely';
import type { Database } from '../database/schema.js';
import type { CredentialVault } from './credential-vault.js';

/** What a rotation did. */
export interface RotationResult {
  /** Secrets moved from a previous key to the current one. */
  readonly reencrypted: number;
  /** Secrets already under the current key, left as they were. */
  readonly alreadyCurrent: number;
}

/**
 * Re-encrypts every secret not under the vault's current key, in one transaction, for every
 * tenant: a maintenance command and the one deliberate cross-tenant query of the registry.
 * The vault must hold the old keys as `previous`; afterwards they can be dropped, and the
 * old key is then refused.
 *
 * @throws CredentialError (`CREDENTIAL_UNREADABLE`) when a secret does not decrypt with any
 *   key of the vault (an old key missing from `MCP_AGENT_SECRET_KEY_PREVIOUS`); then nothing
 *   was re-encrypted, the transaction is rolled back.
 *
 * @example
 * ```ts
 * // MCP_AGENT_SECRET_KEY=<new key>, MCP_AGENT_SECRET_KEY_PREVIOUS=<old key>
 * const registry = await openRegistry();
 * const { reencrypted } = await rotateSecrets(registry.db, registry.vault);
 * // Then drop MCP_AGENT_SECRET_KEY_PREVIOUS and restart.
 * ```
 */
export async function rotateSecrets(
  db: Kysely<Database>,
  vault: CredentialVault,
): Promise<RotationResult> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('secrets').selectAll().execute();
    let reencrypted = 0;
    for (const row of rows) {
      if (row.key_id === vault.currentKeyId) continue;
      const binding = {
        userId: row.user_id,
        ownerKind: row.owner_kind,
        ownerId: row.owner_id,
        field: row.field,
      };
      const { ciphertext, keyId } = vault.encrypt(binding, vault.decrypt(binding, row.ciphertext));
      await trx
        .updateTable('secrets')
        .set({ ciphertext, key_id: keyId })
        .where('id', '=', row.id)
        .execute();
      reencrypted += 1;
    }
    return { reencrypted, alreadyCurrent: rows.length - reencrypted };
  });
}
