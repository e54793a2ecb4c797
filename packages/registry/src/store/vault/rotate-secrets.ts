import type { Kysely } from 'kysely';
import type { Database } from '../database/schema.js';
import type { CredentialVault } from './credential-vault.js';

/** What a rotation did. */
export interface RotationResult {
  readonly reencrypted: number;
  readonly alreadyCurrent: number;
}

/**
 * Re-encrypts every secret not under the vault's current key, in one transaction, for every
 * tenant: a maintenance command and the one deliberate cross-tenant query of the registry.
 * The vault must hold the old keys as `previous`; afterwards they can be dropped, and the
 * old key is then refused.
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
