import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createContext, type JsonValue } from '@mcp-agent/core';
import { reassemble } from '../testing/reassemble.js';
import { parseJsonPath, selectJsonPath } from './json-path.js';
import { MemoryObservationStore } from './observation-store.js';
import { processObservation } from './process-observation.js';

const ctx = createContext({ userId: 'alice' });
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');
const MARKER_TAIL = / … \[(\d+) more chars; read_result id=obs_[\w-]+ offset=\d+(?: path=.*)?\]$/;

/** Reads every pointer of `data` back through `store` until the whole result is rebuilt. */
function rebuild(store: MemoryObservationStore, data: JsonValue, maxTokens = 8_000) {
  return reassemble(data, {
    read: (pointer) => {
      const read = store.read(ctx, pointer.id, { ...pointer, maxTokens });
      if (read === undefined) throw new Error(`no observation ${pointer.id}`);
      return read.value;
    },
    whole: (pointer) => {
      const kept = store.get(ctx, pointer.id);
      if (kept === undefined) throw new Error(`no observation ${pointer.id}`);
      return selectJsonPath(kept.value, parseJsonPath(pointer.path ?? ''));
    },
  });
}

describe('processObservation', () => {
  it('OUT-01 output within budget is returned unchanged, the same reference, at any depth and length', () => {
    const graph = {
      entities: [
        {
          name: 'Alice',
          entityType: 'person',
          observations: ['Works at Acme', 'Speaks German'],
        },
        { name: 'Acme', entityType: 'company', observations: ['Makes anvils'] },
      ],
      relations: [{ from: 'Alice', to: 'Acme', relationType: 'works_at' }],
    };
    const deep = { a: { b: { c: { d: { e: { f: ['six levels down'] } } } } } };
    const long = { text: 'x'.repeat(5_000), list: Array.from({ length: 300 }, (_, i) => i) };
    for (const raw of [graph, deep, long, 'plain text', 42, null]) {
      const result = processObservation(ctx, raw);
      expect(result.data).toBe(raw);
      expect(result.truncated).toBe(false);
      expect(result.observationId).toBeUndefined();
    }
  });

  it('OUT-02 a string past the budget keeps its head and says how many characters were cut, never splitting a surrogate pair', () => {
    const store = new MemoryObservationStore();
    for (let shift = 0; shift < 4; shift++) {
      const text = `${'a'.repeat(250 + shift)}😀${'b'.repeat(2_000)}`;
      const result = processObservation(ctx, { text }, { store, limits: { maxTokens: 100 } });
      const cut = (result.data as { text: string }).text;
      expect(bytes(result.data)).toBeLessThanOrEqual(300);
      expect(cut).toMatch(MARKER_TAIL);
      const head = cut.replace(MARKER_TAIL, '');
      const more = Number(MARKER_TAIL.exec(cut)?.[1]);
      expect(head.length + more).toBe(text.length);
      expect(text.startsWith(head)).toBe(true);
      expect(cut).not.toMatch(
        /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/,
      );
      expect(() => encodeURIComponent(cut)).not.toThrow();
    }
    const cjk = processObservation(ctx, '漢'.repeat(50_000), { store, limits: { maxTokens: 700 } });
    expect(bytes(cjk.data)).toBeLessThanOrEqual(2_100);
    expect(cjk.data).toMatch(/^漢+ … \[\d+ more chars; read_result/);
  });

  it('OUT-03 oversized JSON keeps its shape: array tails become "N more items" markers, the largest values are cut first, and a marker key never shadows a real key', async () => {
    const store = new MemoryObservationStore();
    const raw = {
      items: Array.from({ length: 500 }, (_, i) => ({ id: i, name: `item ${i}` })),
      summary: 'five hundred items',
      count: 500,
      nested: { a: { b: { c: { d: 'deep' } } } },
    };
    const result = processObservation(ctx, raw, { store, limits: { maxTokens: 1_000 } });
    expect(result.truncated).toBe(true);
    expect(bytes(result.data)).toBeLessThanOrEqual(3_000);
    const data = result.data as typeof raw & { items: JsonValue[] };
    // The small values stay whole; only the large array gave way, from its tail.
    expect(data.summary).toBe(raw.summary);
    expect(data.count).toBe(500);
    expect(data.nested).toEqual(raw.nested);
    const kept = data.items.length - 1;
    expect(kept).toBeGreaterThan(20);
    expect(data.items.slice(0, kept)).toEqual(raw.items.slice(0, kept));
    expect(data.items[kept]).toEqual({
      '…': expect.stringMatching(new RegExp(`^${500 - kept} more items \\(~\\d+ tokens\\)$`)),
      read_result: { id: result.observationId, path: 'items', offset: kept },
    });
    expect(await rebuild(store, result.data)).toEqual(raw);

    // An object with hundreds of keys keeps a head of them; the marker key avoids the real "…".
    const wide = Object.fromEntries([
      ['…', 'a real key'],
      ...Array.from({ length: 400 }, (_, i) => [`key${i}`, `value ${i}`]),
    ]);
    const cut = processObservation(ctx, wide, { store, limits: { maxTokens: 300 } });
    const shown = cut.data as Record<string, JsonValue>;
    expect(shown['…']).toBe('a real key');
    expect(shown['……']).toMatchObject({ '…': expect.stringMatching(/^\d+ more keys/) });
    expect(await rebuild(store, cut.data)).toEqual(wide);
  });

  it('OUT-03 the largest values give way first: small ones stay whole, the largest become markers alone', async () => {
    const store = new MemoryObservationStore();
    const issue = {
      id: 7,
      title: 'Crash on start',
      body: 'Steps to reproduce. '.repeat(2_500),
      comments: Array.from({ length: 300 }, (_, i) => ({
        author: `u${i}`,
        text: 'ok '.repeat(60),
      })),
    };
    const cut = processObservation(ctx, issue, { store, limits: { maxTokens: 2_000 } });
    const shown = cut.data as typeof issue & { comments: JsonValue[] };
    expect([shown.id, shown.title]).toEqual([7, 'Crash on start']);
    expect(shown.body).toMatch(
      /^Steps to reproduce\. .* … \[\d+ more chars; read_result .* path=body\]$/,
    );
    expect(shown.comments[0]).toEqual(issue.comments[0]);
    expect(bytes(cut.data)).toBeLessThanOrEqual(6_000);
    expect(await rebuild(store, cut.data)).toEqual(issue);

    const sizes = Array.from({ length: 30 }, (_, i) => 1_000 + i * 500);
    const many = Object.fromEntries(sizes.map((size, i) => [`v${i}`, 'word '.repeat(size / 5)]));
    const result = processObservation(ctx, many, { store, limits: { maxTokens: 1_000 } });
    const values = Object.values(result.data as Record<string, string>);
    const dropped = values.flatMap((v, i) =>
      v.startsWith(' … [') || v.startsWith('… [') ? [sizes[i] as number] : [],
    );
    const shownSizes = values.flatMap((v, i) => (v.startsWith('word') ? [sizes[i] as number] : []));
    expect(dropped.length).toBeGreaterThan(0);
    expect(shownSizes.length).toBeGreaterThan(0);
    expect(Math.min(...dropped)).toBeGreaterThan(Math.max(...shownSizes));
    expect(await rebuild(store, result.data, 1_000)).toEqual(many);
  });

  it('OUT-03 a small budget shows whole items before a marker, never a row of bare markers', async () => {
    const store = new MemoryObservationStore();
    const graph = {
      entities: Array.from({ length: 300 }, (_, i) => ({
        name: `Person ${i}`,
        entityType: 'person',
        observations: Array.from({ length: 30 }, (_, j) => `fact ${j}`),
      })),
      note: 'n '.repeat(400),
    };
    const result = processObservation(ctx, graph, { store, limits: { maxTokens: 400 } });
    const entities = (result.data as typeof graph).entities as JsonValue[];
    expect(entities[0]).toEqual(graph.entities[0]);
    expect(entities.at(-1)).toMatchObject({ '…': expect.stringMatching(/^\d+ more items/) });
    expect(entities.slice(0, -1).every((entity) => !JSON.stringify(entity).includes('"…"'))).toBe(
      true,
    );
    expect(await rebuild(store, result.data, 400)).toEqual(graph);
  });

  it('OUT-03 JSON text is parsed before it is cut, so the cut is structural and parses', async () => {
    const store = new MemoryObservationStore();
    const rows = Array.from({ length: 400 }, (_, i) => ({ id: i, email: `user${i}@example.com` }));
    const text = JSON.stringify({ rows, count: rows.length }, null, 2);
    const result = processObservation(ctx, text, { store, limits: { maxTokens: 1_000 } });
    const data = result.data as { rows: JsonValue[]; count: number };
    expect(data.count).toBe(400);
    expect(data.rows[0]).toEqual(rows[0]);
    expect(data.rows.at(-1)).toMatchObject({ read_result: { path: 'rows' } });
    expect(await rebuild(store, result.data)).toEqual({ rows, count: 400 });
    // Inside MCP text blocks too.
    const blocks = processObservation(ctx, [{ type: 'text', text }], {
      store,
      limits: { maxTokens: 1_000 },
    });
    expect((blocks.data as { text: { count: number } }[])[0]?.text.count).toBe(400);
  });

  it('reuses the JSON its caller wrote: handed back whole within the budget, never written again', () => {
    const raw = { rows: [{ id: 1, name: 'Zoë' }] };
    const text = JSON.stringify(raw);
    const json = { text, bytes: Buffer.byteLength(text, 'utf8') };
    const shaped = processObservation(ctx, raw, { json });
    expect(shaped).toEqual({ data: raw, truncated: false, originalBytes: json.bytes, json });
    expect(shaped.json).toBe(json);
    // Without it, the envelope writes the JSON of an object once and hands it on the same way.
    expect(processObservation(ctx, raw).json).toEqual(json);
    // A cut result has no JSON of its own: whoever shows it writes the cut once.
    const big = 'lorem ipsum '.repeat(3_000);
    const store = new MemoryObservationStore();
    const measured = { text: JSON.stringify(big), bytes: bytes(big) };
    const cut = processObservation(ctx, big, { json: measured, store, limits: { maxTokens: 200 } });
    expect(cut).toMatchObject({ truncated: true, originalBytes: measured.bytes });
    expect(cut).not.toHaveProperty('json');
  });

  it("OUT-05 an image inside a text block's JSON is found (once) and described, not cut as text", async () => {
    const png = Buffer.from('89504e470d0a1a0a'.padEnd(4_000, '0'), 'hex').toString('base64');
    const block = { type: 'image', mimeType: 'image/png', data: png };
    const raw = [
      { type: 'text', text: JSON.stringify({ picture: block, note: 'x'.repeat(30_000) }) },
    ];
    const store = new MemoryObservationStore();
    const shaped = processObservation(ctx, raw, { store, limits: { maxTokens: 1_000 } });
    expect(JSON.stringify(shaped.data)).not.toContain(png.slice(0, 64));
    expect(JSON.stringify(shaped.data)).toContain('"mimeType":"image/png"');
    // The store was told what the envelope found: a read describes the image without looking again.
    const read = store.read(ctx, shaped.observationId as string, { path: '[0].text' });
    expect(JSON.stringify(read?.value)).toContain('"mimeType":"image/png"');
    expect(JSON.stringify(read?.value)).not.toContain(png.slice(0, 64));
  });

  it('OUT-04 cyclic objects, BigInt and undefined do not throw', () => {
    const cyclic: Record<string, unknown> = { name: 'loop', big: 10n, gone: undefined };
    cyclic.self = cyclic;
    const result = processObservation(ctx, cyclic);
    // An undefined value is dropped, as JSON.stringify drops it.
    expect(result.data).toStrictEqual({ name: 'loop', big: '10', self: '[Circular]' });
    expect(result.originalBytes).toBe(-1);
    const large: Record<string, unknown> = { rows: Array.from({ length: 5_000 }, (_, i) => i) };
    large.self = large;
    large.big = 2n ** 80n;
    const cut = processObservation(ctx, large, { limits: { maxTokens: 200 } });
    expect(bytes(cut.data)).toBeLessThanOrEqual(600);
    expect(cut.truncated).toBe(true);
  });

  it('OUT-05 images, audio and binary resources are described with a pointer and kept whole; base64 is never cut; links stay', async () => {
    const store = new MemoryObservationStore();
    const png = Buffer.alloc(30_000, 1).toString('base64');
    const tiny = Buffer.alloc(300, 2).toString('base64');
    const raw = {
      content: [
        { type: 'image', data: png, mimeType: 'image/png' },
        { type: 'audio', data: tiny, mimeType: 'audio/wav' },
        {
          type: 'resource',
          resource: { uri: 'file:///x.bin', mimeType: 'application/octet-stream', blob: png },
        },
        { type: 'resource_link', uri: 'file:///doc.md', name: 'doc' },
        { type: 'text', text: png },
        { type: 'text', text: `data:image/png;base64,${png}` },
      ],
    };
    const result = processObservation(ctx, raw, { store });
    const id = result.observationId;
    expect(id).toMatch(/^obs_[\w-]{12}$/);
    expect(result.data).toEqual({
      content: [
        {
          type: 'image',
          mimeType: 'image/png',
          bytes: 30_000,
          read_result: { id, path: 'content[0]' },
        },
        {
          type: 'audio',
          mimeType: 'audio/wav',
          bytes: 300,
          read_result: { id, path: 'content[1]' },
        },
        {
          type: 'resource',
          resource: {
            uri: 'file:///x.bin',
            mimeType: 'application/octet-stream',
            bytes: 30_000,
            read_result: { id, path: 'content[2]' },
          },
        },
        { type: 'resource_link', uri: 'file:///doc.md', name: 'doc' },
        {
          type: 'text',
          text: `[base64 data, 30000 bytes; read_result id=${id} path=content[4].text]`,
        },
        {
          type: 'text',
          text: `[image/png data URL, 30000 bytes; read_result id=${id} path=content[5].text]`,
        },
      ],
    });
    // The store holds every byte, for whoever can show an image or write it to a file.
    expect(store.get(ctx, id as string)?.value).toEqual(raw);
    expect(await rebuild(store, result.data)).toEqual(raw);
    // A small image is described too: base64 is no use to a model as text.
    const small = processObservation(
      ctx,
      { type: 'image', data: tiny, mimeType: 'image/gif' },
      { store },
    );
    expect(small.data).toMatchObject({ type: 'image', mimeType: 'image/gif', bytes: 300 });
    expect(small.truncated).toBe(true);
  });

  it('OUT-06 random JSON, up to 10 MB: the output parses, fits the budget, and its pointers give back the whole', async () => {
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
      fc.property(json, fc.integer({ min: 100, max: 7_000 }), (value, maxTokens) => {
        const result = processObservation(ctx, value, { limits: { maxTokens } });
        const text = JSON.stringify(result.data);
        expect(() => JSON.parse(text)).not.toThrow();
        expect(Buffer.byteLength(text, 'utf8')).toBeLessThanOrEqual(maxTokens * 3);
      }),
      { numRuns: 200 },
    );
    const store = new MemoryObservationStore({ maxPerTenant: 10_000 });
    await fc.assert(
      fc.asyncProperty(json, fc.integer({ min: 100, max: 400 }), async (value, maxTokens) => {
        const result = processObservation(ctx, value, { store, limits: { maxTokens } });
        // Compared as JSON: a result within the budget comes back as given (-Infinity and all).
        const json = (v: unknown) => JSON.parse(JSON.stringify(v) ?? 'null') as JsonValue;
        expect(json(await rebuild(store, result.data))).toEqual(json(value));
      }),
      { numRuns: 60 },
    );
    for (const size of [1_000_000, 10_000_000]) {
      const big = {
        blob: 'lorem ipsum '.repeat(size / 24),
        rows: Array.from({ length: size / 100 }, (_, i) => ({ i, s: 'y'.repeat(80) })),
      };
      const result = processObservation(ctx, big, { store });
      expect(bytes(result.data)).toBeLessThanOrEqual(24_000);
      expect(result.originalBytes).toBeGreaterThan(size);
      const data = result.data as { blob: string; rows: unknown[] };
      expect(data.rows.length).toBeGreaterThan(10);
      // Past the store's 10 MB per result, the cut says that the rest was not kept.
      expect(data.blob.slice(-80)).toMatch(
        size < 10_000_000 ? MARKER_TAIL : / … \[\d+ more chars, not kept\]$/,
      );
    }
  });

  it('SBX-22 "__proto__" keys stay data and never pollute Object.prototype', () => {
    const store = new MemoryObservationStore();
    const raw = JSON.parse(
      `{"__proto__": {"isAdmin": true}, "list": [${'1,'.repeat(3_000)}1], "text": ${JSON.stringify(JSON.stringify({ __proto__: 1 }))}}`,
    );
    for (const maxTokens of [8_000, 300]) {
      const result = processObservation(ctx, raw, { store, limits: { maxTokens } });
      expect(Object.keys(result.data as object)).toContain('__proto__');
      expect(({} as { isAdmin?: boolean }).isAdmin).toBeUndefined();
    }
  });
});
