import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { CredentialError } from '@mcp-agent/core';
import type { Keyring, SecretKey } from './secret-key.js';

/** What a secret is bound to; the same values must be given to decrypt it. */
export interface SecretBinding {
  /** The tenant: another tenant's ciphertext does not decrypt for this one. */
  readonly userId: string;
  /** The owner row's table (`connection`, `account`, `auth_config`). */
  readonly ownerKind: string;
  /** The owner row's id. */
  readonly ownerId: string;
  /** Which secret of that row (`env:TOKEN`, `header:Authorization`, `oauth_tokens`). */
  readonly field: string;
}

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM with a random 12-byte nonce, a 16-byte tag that is enforced on decryption, and
 * additional data binding each ciphertext to (tenant, row, field): a ciphertext copied to
 * another row or tenant does not decrypt. Output: `v1.<keyId>.<nonce>.<ciphertext>.<tag>`.
 */
export class CredentialVault {
  readonly #keyring: Keyring;

  constructor(keyring: Keyring) {
    this.#keyring = keyring;
  }

  /** The id of the key new ciphertexts are made with. */
  get currentKeyId(): string {
    return this.#keyring.current.id;
  }

  /** Encrypts `plaintext` under the current key, bound to `binding`. */
  encrypt(
    binding: SecretBinding,
    plaintext: string,
  ): {
    /** `v1.<keyId>.<nonce>.<ciphertext>.<tag>`, base64url parts: what is stored. */
    ciphertext: string;
    /** The key it was made with, stored beside it so rotation finds what to re-encrypt. */
    keyId: string;
  } {
    const { id, key } = this.#keyring.current;
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad(binding));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    const parts = [VERSION, id, nonce, body, tag].map((p) =>
      typeof p === 'string' ? p : p.toString('base64url'),
    );
    return { ciphertext: parts.join('.'), keyId: id };
  }

  /**
   * Decrypts with the key the ciphertext names (current or previous): never returns plaintext
   * of a tampered, truncated, moved or foreign-key ciphertext, and never returns null instead.
   *
   * @throws CredentialError (`CREDENTIAL_UNREADABLE`) saying why (format, unknown key,
   *   failed authentication), naming the field but never its value.
   */
  decrypt(binding: SecretBinding, ciphertext: string): string {
    const parts = ciphertext.split('.');
    if (parts.length !== 5 || parts[0] !== VERSION) {
      throw unreadable(binding, 'it is not in the v1 format');
    }
    const [, id, nonceText, bodyText, tagText] = parts as [string, string, string, string, string];
    const key = this.#find(id);
    if (key === undefined) {
      throw unreadable(
        binding,
        `it was encrypted with key ${id}, which is not configured (set it in MCP_AGENT_SECRET_KEY_PREVIOUS while rotating, or re-authorise)`,
      );
    }
    const nonce = Buffer.from(nonceText, 'base64url');
    const tag = Buffer.from(tagText, 'base64url');
    if (nonce.length !== NONCE_BYTES) throw unreadable(binding, 'its nonce has the wrong length');
    if (tag.length !== TAG_BYTES) throw unreadable(binding, 'its authentication tag is truncated');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.key, nonce, {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(aad(binding));
      decipher.setAuthTag(tag);
      return Buffer.concat([
        decipher.update(Buffer.from(bodyText, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch (error) {
      throw unreadable(
        binding,
        'authentication failed (wrong key, or the data was altered or moved)',
        error,
      );
    }
  }

  #find(id: string): SecretKey | undefined {
    if (this.#keyring.current.id === id) return this.#keyring.current;
    return this.#keyring.previous.find((key) => key.id === id);
  }
}

function aad(binding: SecretBinding): Buffer {
  return Buffer.from(
    [
      'mcp-agent/secret/v1',
      binding.userId,
      `${binding.ownerKind}:${binding.ownerId}`,
      binding.field,
    ].join('\0'),
    'utf8',
  );
}

function unreadable(binding: SecretBinding, why: string, cause?: unknown): CredentialError {
  return new CredentialError(`The stored secret "${binding.field}" cannot be read: ${why}.`, {
    cause,
    details: { ownerKind: binding.ownerKind, field: binding.field },
  });
}
