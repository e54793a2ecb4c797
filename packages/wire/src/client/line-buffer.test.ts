import { describe, expect, it } from 'vitest';
import { LineBuffer } from './line-buffer.js';

describe('LineBuffer', () => {
  it('joins lines split across chunks and splits chunks holding several lines', () => {
    const buffer = new LineBuffer(100);
    expect(buffer.push(Buffer.from('{"a":'))).toEqual([]);
    expect(buffer.push(Buffer.from('1}\n{"b":2}\r\n{"c"'))).toEqual(['{"a":1}', '{"b":2}']);
    expect(buffer.push(Buffer.from(':3}\n'))).toEqual(['{"c":3}']);
  });

  it('keeps multi-byte characters split across chunks intact', () => {
    const bytes = Buffer.from('é😀\n');
    const buffer = new LineBuffer(100);
    expect(buffer.push(bytes.subarray(0, 3))).toEqual([]);
    expect(buffer.push(bytes.subarray(3))).toEqual(['é😀']);
  });

  it('throws once a line passes the bound, and recovers for the next line', () => {
    const buffer = new LineBuffer(10);
    buffer.push(Buffer.from('12345'));
    expect(() => buffer.push(Buffer.from('678901'))).toThrow(/exceeded 10 bytes/);
    expect(buffer.push(Buffer.from('ok\n'))).toEqual(['ok']);
  });
});
