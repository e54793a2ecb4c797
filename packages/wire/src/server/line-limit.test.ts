import { describe, expect, it } from 'vitest';
import { LineLimit, type OversizedLine } from './line-limit.js';

function split(maxBytes: number) {
  const lines: string[] = [];
  const oversized: OversizedLine[] = [];
  const limit = new LineLimit(
    maxBytes,
    (line) => lines.push(line),
    (line) => oversized.push(line),
  );
  return { limit, lines, oversized };
}

describe('LineLimit', () => {
  it('gives each line whole and in order, however the chunks cut them', () => {
    const { limit, lines } = split(100);
    limit.write(Buffer.from('{"a":1}\n'));
    limit.write(Buffer.from('{"b":'));
    limit.write(Buffer.from('2}\n{"c":3}\n{"d"'));
    limit.write(Buffer.from(':4}\n\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}', '{"d":4}']);
  });

  it('keeps a character cut between two chunks whole', () => {
    const { limit, lines } = split(100);
    const bytes = Buffer.from('{"text":"é✓"}\n');
    limit.write(bytes.subarray(0, 11));
    limit.write(bytes.subarray(11));
    expect(lines).toEqual(['{"text":"é✓"}']);
  });

  it('GW-04 drops a line past the limit, names its id from its end or its start, and goes on', () => {
    const { limit, lines, oversized } = split(64);
    const big = 'x'.repeat(200);
    // As an SDK client writes a request (its id last), in two chunks; then one with its id first.
    const idLast = `{"method":"m","params":{"q":"${big}"},"jsonrpc":"2.0","id":7}`;
    const idFirst = `{"jsonrpc":"2.0","id":"s-1","params":"${big}"}`;
    limit.write(Buffer.from(idLast.slice(0, 80)));
    limit.write(Buffer.from(`${idLast.slice(80)}\n{"ok":1}\n${idFirst}\n`));
    expect(oversized).toEqual([
      { bytes: idLast.length, id: 7 },
      { bytes: idFirst.length, id: 's-1' },
    ]);
    expect(lines).toEqual(['{"ok":1}']);
  });

  it('reads a line of exactly the limit, and a line one byte over is dropped', () => {
    const { limit, lines, oversized } = split(8);
    limit.write(Buffer.from('12345678\n123456789\n'));
    expect(lines).toEqual(['12345678']);
    expect(oversized).toEqual([{ bytes: 9, id: null }]);
  });

  it('never reads a last line without its newline; an oversized one is still reported', () => {
    const cut = split(100);
    cut.limit.write(Buffer.from('{"a":1}\n{"b":'));
    cut.limit.end();
    expect(cut.lines).toEqual(['{"a":1}']);
    const long = split(4);
    long.limit.write(Buffer.from('{"jsonrpc":"2.0","id":3,'));
    long.limit.end();
    expect(long.oversized).toEqual([{ bytes: 24, id: 3 }]);
  });
});
