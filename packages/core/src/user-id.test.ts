import { describe, expect, it } from 'vitest';
import { createContext } from './context.js';
import { InvalidArgumentsError } from './errors.js';
import { parseUserId, userIdProblem } from './user-id.js';

// The look-alikes of issue 45: each would be another user's id once trimmed or normalised.
const LOOK_ALIKES: readonly [string, RegExp][] = [
  ['alice ', /whitespace \(U\+0020\)/],
  [' alice', /whitespace \(U\+0020\)/],
  ['alice\u00a0', /whitespace \(U\+00A0\)/],
  ['alice\u3000', /whitespace \(U\+3000\)/],
  ['alice\ufeff', /whitespace \(U\+FEFF\)/],
  ['jose\u0301', /not in Unicode normal form C/],
  ['\u212Bngstr\u00f6m', /not in Unicode normal form C/],
  ['\u0041\u030angstr\u00f6m', /not in Unicode normal form C/],
];

describe('parseUserId', () => {
  it('AUTH-22 refuses every id that is not already canonical, never mapping it onto another', () => {
    for (const [input, reason] of LOOK_ALIKES) {
      expect(() => parseUserId(input)).toThrow(InvalidArgumentsError);
      expect(() => parseUserId(input)).toThrow(reason);
      expect(userIdProblem(input)).toMatch(reason);
      // createContext, the library's way in, refuses them the same way.
      expect(() => createContext({ userId: input })).toThrow(reason);
    }
    // Their canonical forms are ids of their own, taken as they are.
    for (const id of ['alice', 'jos\u00e9', '\u00c5ngstr\u00f6m'])
      expect(createContext({ userId: id }).userId).toBe(id);
  });

  it('keeps case: two ids that differ only in case are two users', () => {
    expect(parseUserId('user_123')).not.toBe(parseUserId('USER_123'));
  });

  it.each([
    ['', /it is empty/],
    ['   ', /whitespace/],
    ['u'.repeat(257), /257 characters long/],
    ['a\nb', /control/],
    ['a\tb', /control/],
    ['a\u0000b', /control/],
    ['a\u202eb', /control/],
    ['a\u2028b', /control/],
    ['../bob', /path segment/],
    ['alice/../bob', /path segment/],
    ['..', /path segment/],
    ['a\\.\\b', /path segment/],
    ['j\u00f6rg/../bob', /path segment/],
    [null, /got null/],
    [7, /got number/],
  ])('rejects %j', (input, message) => {
    expect(() => parseUserId(input)).toThrow(InvalidArgumentsError);
    expect(() => parseUserId(input)).toThrow(message);
  });

  it('AUTH-18 accepts the ids identity providers issue: pipes, emails, colons, slashes, scripts', () => {
    for (const id of [
      'auth0|6f1c2a',
      'alice@example.com',
      'repo:octo-org/app:ref:refs/heads/main',
      'J\u00fcrgen M\u00fcller',
      '山田太郎',
      'a..b',
      '.alice',
      'a b',
      '~',
    ])
      expect(parseUserId(id)).toBe(id);
  });

  it('answers the same however often and in whatever order it is asked: nothing is remembered', () => {
    expect(() => parseUserId('caf\u00e9 ')).toThrow(/whitespace/);
    expect(parseUserId('caf\u00e9')).toBe('caf\u00e9');
    expect(() => parseUserId('caf\u00e9 ')).toThrow(/whitespace/);
    expect(() => parseUserId('cafe\u0301')).toThrow(/normal form/);
    expect(parseUserId('caf\u00e9')).toBe('caf\u00e9');
  });

  it('accepts exactly 256 characters', () => {
    expect(parseUserId('u'.repeat(256))).toHaveLength(256);
  });
});
