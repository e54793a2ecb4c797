import { describe, expect, it } from 'vitest';
import { tokenDigest } from './token-digest.js';

describe('tokenDigest', () => {
  it('is the SHA-256 hex that token files already store (FIPS 180-2 vector)', () => {
    expect(tokenDigest('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});
