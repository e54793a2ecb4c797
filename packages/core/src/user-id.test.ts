import { describe, expect, it } from 'vitest';
import { InvalidArgumentsError } from './errors.js';
import { normalizeUserId } from './user-id.js';

describe('normalizeUserId', () => {
  it('trims and applies NFC, keeping case', () => {
    expect(normalizeUserId('  Alice@Example.com ')).toBe('Alice@Example.com');
    expect(normalizeUserId('cafe\u0301')).toBe('caf\u00e9');
    expect(normalizeUserId('user_123')).not.toBe(normalizeUserId('USER_123'));
  });

  it.each([
    ['', /it is empty/],
    ['   ', /it is empty/],
    ['u'.repeat(257), /257 characters long/],
    ['a\nb', /control/],
    ['a\u0000b', /control/],
    ['a\u202eb', /control/],
    ['a\u2028b', /control/],
    ['../bob', /path segment/],
    ['alice/../bob', /path segment/],
    ['..', /path segment/],
    ['a\\.\\b', /path segment/],
    [null, /got null/],
    [7, /got number/],
  ])('rejects %j', (input, message) => {
    expect(() => normalizeUserId(input)).toThrow(InvalidArgumentsError);
    expect(() => normalizeUserId(input)).toThrow(message);
  });

  it('AUTH-18 accepts the ids identity providers issue: pipes, emails, colons, slashes, scripts', () => {
    for (const id of [
      'auth0|6f1c2a',
      'alice@example.com',
      'repo:octo-org/app:ref:refs/heads/main',
      'Jürgen Müller',
      '山田太郎',
      'a..b',
      '.alice',
    ])
      expect(normalizeUserId(id)).toBe(id);
  });

  it('answers the same after the last accepted id was taken unchecked', () => {
    expect(normalizeUserId(' cafe\u0301 ')).toBe('caf\u00e9');
    // The normal form again (taken as it is), then the raw one, then a refused one.
    expect(normalizeUserId('caf\u00e9')).toBe('caf\u00e9');
    expect(normalizeUserId(' cafe\u0301 ')).toBe('caf\u00e9');
    expect(() => normalizeUserId('caf\u00e9\nbob')).toThrow(/control/);
    expect(normalizeUserId('caf\u00e9')).toBe('caf\u00e9');
  });

  it('accepts exactly 256 characters', () => {
    expect(normalizeUserId('u'.repeat(256))).toHaveLength(256);
  });
});
