import { describe, expect, it } from 'vitest';
import { isJsonObject, toJsonSafe } from './json.js';
import { redactSecrets } from './logger.js';

// What a server's result or a stored row looks like once parsed: "__proto__" as an own key.
const hostile = () =>
  JSON.parse('{"__proto__": {"isAdmin": true}, "nested": [{"__proto__": {"x": 1}}]}') as object;

describe('toJsonSafe', () => {
  it('RES-03 keeps a "__proto__" key as data: no copy has its prototype changed', () => {
    const copy = toJsonSafe(hostile()) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    expect(Object.keys(copy)).toEqual(['__proto__', 'nested']);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ isAdmin: true });
    const inner = (copy.nested as object[])[0] as object;
    expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
    expect(JSON.stringify(copy)).toBe(
      '{"__proto__":{"isAdmin":true},"nested":[{"__proto__":{"x":1}}]}',
    );
  });

  it('RES-03 the log redaction copy keeps it as data too', () => {
    const copy = redactSecrets(hostile()) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'nested']);
  });

  it('copies cycles, bigints, dates and errors, drops undefined keys, and bounds the depth', () => {
    const cyclic: Record<string, unknown> = { big: 2n, when: new Date(0), gone: undefined };
    cyclic.self = cyclic;
    cyclic.error = new TypeError('bad');
    expect(toJsonSafe(cyclic)).toStrictEqual({
      big: '2',
      when: '1970-01-01T00:00:00.000Z',
      self: '[Circular]',
      error: { name: 'TypeError', message: 'bad' },
    });
    expect(toJsonSafe({ a: { b: { c: 1 } } }, { maxDepth: 2 })).toEqual({
      a: { b: '[nested deeper than 2 levels]' },
    });
    expect(toJsonSafe([undefined, Number.NaN])).toEqual([null, 'NaN']);
  });
});

describe('isJsonObject', () => {
  it('is true for an object and false for an array, null and every other value', () => {
    expect([{}, { a: 1 }, Object.create(null)].map(isJsonObject)).toEqual([true, true, true]);
    expect([[], null, undefined, 'x', 1, true].map(isJsonObject)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
