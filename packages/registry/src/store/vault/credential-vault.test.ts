import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CredentialError } from '@mcp-agent/core';
import { CredentialVault } from './credential-vault.js';
import { parseSecretKey, type Keyring } from './secret-key.js';

const newKey = () => parseSecretKey(randomBytes(32).toString('base64'), 'test');
const ring = (current = newKey(), previous: Keyring['previous'] = []): Keyring => ({
  current,
  previous,
});
const binding = {
  userId: 'alice',
  ownerKind: 'connection',
  ownerId: 'row-1',
  field: 'header:Authorization',
};

function flip(text: string, part: number, byte = 0): string {
  const parts = text.split('.');
  const bytes = Buffer.from(parts[part] as string, 'base64url');
  bytes[byte] = (bytes[byte] as number) ^ 0x01;
  parts[part] = bytes.toString('base64url');
  return parts.join('.');
}

function expectUnreadable(run: () => unknown, message: RegExp): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(CredentialError.isInstance(thrown), String(thrown)).toBe(true);
  expect((thrown as Error).message).toMatch(message);
}

describe('CredentialVault', () => {
  it('round-trips unicode and empty secrets', () => {
    const vault = new CredentialVault(ring());
    for (const secret of ['', 'Bearer abc', 'пароль 🔑', 'x'.repeat(100_000)]) {
      expect(vault.decrypt(binding, vault.encrypt(binding, secret).ciphertext)).toBe(secret);
    }
  });

  it('TEN-04 the same plaintext encrypts to a different nonce and ciphertext each time', () => {
    const vault = new CredentialVault(ring());
    const a = vault.encrypt(binding, 'same').ciphertext.split('.');
    const b = vault.encrypt(binding, 'same').ciphertext.split('.');
    expect(a[2]).not.toBe(b[2]);
    expect(a[3]).not.toBe(b[3]);
    expect(a[0]).toBe('v1');
    expect(Buffer.from(a[2] as string, 'base64url')).toHaveLength(12);
    expect(Buffer.from(a[4] as string, 'base64url')).toHaveLength(16);
  });

  it('TEN-05 a flipped bit in the nonce, ciphertext or tag fails authentication', () => {
    const vault = new CredentialVault(ring());
    const { ciphertext } = vault.encrypt(binding, 'secret-value');
    for (const part of [2, 3, 4])
      expectUnreadable(
        () => vault.decrypt(binding, flip(ciphertext, part)),
        /authentication failed/,
      );
  });

  it('TEN-05 a tag truncated to 4 bytes is refused, not accepted as a short tag', () => {
    const vault = new CredentialVault(ring());
    const parts = vault.encrypt(binding, 'secret-value').ciphertext.split('.');
    parts[4] = Buffer.from(parts[4] as string, 'base64url')
      .subarray(0, 4)
      .toString('base64url');
    expectUnreadable(() => vault.decrypt(binding, parts.join('.')), /tag is truncated/);
  });

  it('TEN-05 a ciphertext moved to another row, field or tenant does not decrypt (AAD binding)', () => {
    const vault = new CredentialVault(ring());
    const { ciphertext } = vault.encrypt(binding, 'secret-value');
    for (const moved of [
      { ...binding, userId: 'bob' },
      { ...binding, ownerId: 'row-2' },
      { ...binding, ownerKind: 'account' },
      { ...binding, field: 'env:TOKEN' },
    ]) {
      expectUnreadable(() => vault.decrypt(moved, ciphertext), /authentication failed/);
    }
  });

  it('TEN-05 malformed strings are refused', () => {
    const vault = new CredentialVault(ring());
    expectUnreadable(() => vault.decrypt(binding, 'plaintext'), /not in the v1 format/);
    expectUnreadable(() => vault.decrypt(binding, 'v2.a.b.c.d'), /not in the v1 format/);
    const parts = vault.encrypt(binding, 'x').ciphertext.split('.');
    parts[2] = 'AAAA';
    expectUnreadable(() => vault.decrypt(binding, parts.join('.')), /nonce has the wrong length/);
  });

  it('TEN-06 a wrong key and an unknown key id are explicit errors, never plaintext or null', () => {
    const writer = new CredentialVault(ring());
    const { ciphertext } = writer.encrypt(binding, 'secret-value');
    expectUnreadable(
      () => new CredentialVault(ring()).decrypt(binding, ciphertext),
      /not configured/,
    );
    // Same key id prefix but another key: authentication, not silence.
    const forged = ciphertext.split('.');
    const other = newKey();
    const otherVault = new CredentialVault(ring({ id: forged[1] as string, key: other.key }));
    expectUnreadable(() => otherVault.decrypt(binding, ciphertext), /authentication failed/);
  });

  it('TEN-06 previous keys decrypt during rotation; new ciphertexts use the current key', () => {
    const old = newKey();
    const ciphertext = new CredentialVault(ring(old)).encrypt(binding, 'v').ciphertext;
    const rotated = new CredentialVault(ring(newKey(), [old]));
    expect(rotated.decrypt(binding, ciphertext)).toBe('v');
    expect(rotated.encrypt(binding, 'v').keyId).toBe(rotated.currentKeyId);
    expect(rotated.currentKeyId).not.toBe(old.id);
  });

  it('error messages never contain the secret or the key', () => {
    const key = newKey();
    const vault = new CredentialVault(ring(key));
    const { ciphertext } = vault.encrypt(binding, 'hunter2-secret');
    try {
      vault.decrypt({ ...binding, userId: 'bob' }, ciphertext);
    } catch (error) {
      const text = JSON.stringify(error) + String(error);
      expect(text).not.toContain('hunter2');
      expect(text).not.toContain(key.key.toString('base64'));
    }
  });
});
