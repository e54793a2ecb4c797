import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { MemoryObservationStore } from './observation-store.js';
import { processObservation } from './process-observation.js';

const ctx = createContext({ userId: 'alice' });
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

describe('processObservation', () => {
  it('OUT-01 output within budget is returned unchanged, the same reference', () => {
    const raw = { issues: [{ id: 1, title: 'Bug' }], total: 1 };
    const result = processObservation(ctx, raw);
    expect(result.data).toBe(raw);
    expect(result.truncated).toBe(false);
    expect(result.observationId).toBeUndefined();
  });

  it('OUT-02 a long string is cut at 500 with its original length, never inside a surrogate pair', () => {
    const text = `${'a'.repeat(499)}😀${'b'.repeat(1_000)}`;
    const result = processObservation(ctx, { text });
    const cut = (result.data as { text: string }).text;
    expect(cut.startsWith('a'.repeat(499))).toBe(true);
    expect(cut).toMatch(/… \[truncated: 1501 chars\]$/);
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(() => encodeURIComponent(cut)).not.toThrow();
    const cjk = processObservation(ctx, '漢'.repeat(5_000), { limits: { maxTotalBytes: 2_000 } });
    expect(bytes(cjk.data)).toBeLessThanOrEqual(2_000);
  });

  it('OUT-03 oversized JSON keeps its shape: arrays cut with a marker, deep objects summarised', () => {
    const raw = {
      items: Array.from({ length: 50 }, (_, i) => ({ id: i, name: `item ${i}` })),
      nested: { a: { b: { c: { d: 'deep' } } } },
      __proto__marker: 'kept',
    };
    const result = processObservation(ctx, raw);
    const data = result.data as { items: unknown[]; nested: { a: { b: unknown } } };
    expect(data.items).toHaveLength(21);
    expect(data.items[20]).toEqual({ truncated: true, total: 50 });
    expect(data.nested.a.b).toBe('[object with 1 keys: c]');
    expect(result.truncated).toBe(true);
  });

  it('OUT-04 cyclic objects, BigInt and undefined do not throw', () => {
    const cyclic: Record<string, unknown> = { name: 'loop', big: 10n, gone: undefined };
    cyclic.self = cyclic;
    const result = processObservation(ctx, cyclic);
    expect(result.data).toEqual({ name: 'loop', big: '10', gone: null, self: '[Circular]' });
    expect(result.originalBytes).toBe(-1);
  });

  it('OUT-05 images, audio, binary resources and base64 become their type and size; links stay', () => {
    const png = Buffer.alloc(30_000, 1).toString('base64');
    const result = processObservation(ctx, {
      content: [
        { type: 'image', data: png, mimeType: 'image/png' },
        { type: 'audio', data: png, mimeType: 'audio/wav' },
        {
          type: 'resource',
          resource: { uri: 'file:///x.bin', mimeType: 'application/octet-stream', blob: png },
        },
        { type: 'resource_link', uri: 'file:///doc.md', name: 'doc' },
        { type: 'text', text: png },
        { type: 'text', text: `data:image/png;base64,${png}` },
      ],
    });
    expect(result.data).toEqual({
      content: [
        { type: 'image', mimeType: 'image/png', bytes: 30_000 },
        { type: 'audio', mimeType: 'audio/wav', bytes: 30_000 },
        {
          type: 'resource',
          resource: { uri: 'file:///x.bin', mimeType: 'application/octet-stream', bytes: 30_000 },
        },
        { type: 'resource_link', uri: 'file:///doc.md', name: 'doc' },
        { type: 'text', text: '[base64 data, 30000 bytes]' },
        { type: 'text', text: '[image/png data URL, 30000 bytes]' },
      ],
    });
  });

  it('keeps the full raw result in the store, pageable by its tenant only', () => {
    const store = new MemoryObservationStore();
    const raw = { rows: Array.from({ length: 1_000 }, (_, i) => ({ i })) };
    const result = processObservation(ctx, raw, { store });
    expect(result.observationId).toMatch(/^obs_/);
    const page = store.page(ctx, result.observationId as string, { offset: 0, limit: 100 });
    expect(page?.text).toBe(JSON.stringify(raw).slice(0, 100));
    expect(page?.nextOffset).toBe(100);
    expect(
      store.page(createContext({ userId: 'bob' }), result.observationId as string),
    ).toBeUndefined();
  });

  it('limits are configurable per call', () => {
    const result = processObservation(
      ctx,
      { list: [1, 2, 3, 4], text: 'abcdef' },
      {
        limits: { maxArrayItems: 2, maxStringLength: 3 },
      },
    );
    expect(result.data).toEqual({
      list: [1, 2, { truncated: true, total: 4 }],
      text: 'abc… [truncated: 6 chars]',
    });
  });

  it('SBX-22 "__proto__" keys stay data and never pollute Object.prototype', () => {
    const raw = JSON.parse(`{"__proto__": {"isAdmin": true}, "list": [${'1,'.repeat(30)}1]}`);
    const result = processObservation(ctx, raw);
    expect(Object.keys(result.data as object)).toContain('__proto__');
    expect(({} as { isAdmin?: boolean }).isAdmin).toBeUndefined();
  });

  it('OUT-06 random JSON, up to 10 MB: the output parses and fits the budget every time', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.string({ maxLength: 2_000, unit: 'grapheme' }),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 60 }),
        fc.dictionary(fc.string({ maxLength: 20 }), tie('value'), { maxKeys: 12 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, fc.integer({ min: 200, max: 20_000 }), (value, budget) => {
        const result = processObservation(ctx, value, { limits: { maxTotalBytes: budget } });
        const text = JSON.stringify(result.data);
        expect(() => JSON.parse(text)).not.toThrow();
        expect(Buffer.byteLength(text, 'utf8')).toBeLessThanOrEqual(budget);
      }),
      { numRuns: 200 },
    );
    for (const size of [1_000_000, 10_000_000]) {
      const big = {
        blob: 'x'.repeat(size / 2),
        rows: Array.from({ length: size / 100 }, (_, i) => ({ i, s: 'y'.repeat(80) })),
      };
      const result = processObservation(ctx, big);
      expect(bytes(result.data)).toBeLessThanOrEqual(8_000);
      expect(result.originalBytes).toBeGreaterThan(size);
    }
  });
});
