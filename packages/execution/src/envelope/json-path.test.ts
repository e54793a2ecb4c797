import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatJsonPath, parseJsonPath, selectJsonPath } from './json-path.js';

describe('JSON paths of kept results', () => {
  it('reads back every path it writes, whatever the keys', () => {
    const segment = fc.oneof(
      fc.nat({ max: 10_000 }),
      fc.string({ maxLength: 12, unit: 'grapheme' }),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (path) => {
        expect(parseJsonPath(formatJsonPath(path))).toEqual(path);
      }),
      { numRuns: 500 },
    );
    expect(formatJsonPath(['entities', 3, 'observations'])).toBe('entities[3].observations');
    expect(formatJsonPath(['a b', '$', '0', 'x-y'])).toBe('["a b"].$["0"].x-y');
    expect(parseJsonPath('(root)')).toEqual([]);
    expect(parseJsonPath('$')).toEqual(['$']);
  });

  it('selects by index and key, and an index on an object reads the key of that number', () => {
    const value = { rows: [{ '0': 'zero', id: 7 }] };
    expect(selectJsonPath(value, ['rows', 0, 'id'])).toBe(7);
    expect(selectJsonPath(value, ['rows', 0, 0])).toBe('zero');
    expect(selectJsonPath(value, [])).toBe(value);
    expect(() => selectJsonPath(value, ['rows', 0, 'id', 'x'])).toThrow(
      'No value at rows[0].id.x: rows[0].id is a number.',
    );
    expect(() => selectJsonPath({ toString: 1 }, ['constructor'])).toThrow(
      /has no key "constructor"/,
    );
  });
});
