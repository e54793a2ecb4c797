import { describe, expect, it, vi } from 'vitest';
import { createContext, McpAgentError, type JsonValue } from '@mcp-agent/core';
import { createManualClock } from '@mcp-agent/core/testing';
import { MemoryObservationStore } from './observation-store.js';

const clock = createManualClock();
const alice = createContext({ userId: 'alice', clock });
const bob = createContext({ userId: 'bob', clock });
const source = { source: 'db.query' };

describe('MemoryObservationStore', () => {
  it('LOAD-12 gives expired results back with no further use: a timer runs only while something is kept', () => {
    vi.useFakeTimers();
    try {
      const store = new MemoryObservationStore({ clock, ttlMs: 120_000 });
      expect(vi.getTimerCount()).toBe(0);
      store.put(alice, { rows: [1] }, source);
      store.put(bob, { rows: [2] }, source);
      expect(vi.getTimerCount()).toBe(1);
      clock.advance(60_000);
      vi.advanceTimersByTime(60_000);
      // Not expired yet: still kept, still swept.
      expect(vi.getTimerCount()).toBe(1);
      clock.advance(60_001);
      vi.advanceTimersByTime(60_000);
      // The sweep found nothing left and stopped; nothing else touched the store.
      expect(vi.getTimerCount()).toBe(0);
      expect(store.stats()).toEqual({ tenants: 0, observations: 0, bytes: 0 });
      store.put(alice, { rows: [3] }, source);
      expect(vi.getTimerCount()).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps a result whole for its tenant only: get and read refuse every other tenant', () => {
    const store = new MemoryObservationStore({ clock });
    const id = store.put(alice, { rows: [1, 2, 3] }, source) as string;
    expect(store.get(alice, id)).toMatchObject({ value: { rows: [1, 2, 3] }, source: 'db.query' });
    expect(store.read(alice, id)).toEqual({
      observationId: id,
      source: 'db.query',
      value: { rows: [1, 2, 3] },
      truncated: false,
    });
    expect(store.get(bob, id)).toBeUndefined();
    expect(store.read(bob, id)).toBeUndefined();
    expect(store.read(alice, 'obs_unknown')).toBeUndefined();
  });

  it('reads the value at a path, and pages through strings, arrays and objects by offset and limit', () => {
    const store = new MemoryObservationStore({ clock });
    const value = {
      entities: [
        { name: 'Alice', observations: ['a', 'b', 'c', 'd', 'e'] },
        { name: 'Bob', observations: ['f'] },
      ],
      'odd key': { text: 'héllo wörld 😀 done' },
    };
    const id = store.put(alice, value, source) as string;
    const read = (options: object) => store.read(alice, id, options)?.value;
    expect(read({ path: 'entities[1].name' })).toBe('Bob');
    expect(read({ path: '["odd key"].text', offset: 6, limit: 5 })).toBe(
      `wörld … [8 more chars; read_result id=${id} offset=11 path=["odd key"].text]`,
    );
    // A page never ends inside a surrogate pair: the emoji comes whole.
    expect(read({ path: '["odd key"].text', offset: 12, limit: 1 })).toMatch(/^😀 … \[5 more/);
    expect(read({ path: 'entities[0].observations', offset: 1, limit: 2 })).toEqual([
      'b',
      'c',
      {
        '…': '2 more items (~3 tokens)',
        read_result: { id, path: 'entities[0].observations', offset: 3 },
      },
    ]);
    expect(read({ path: 'entities[0].observations', offset: 3 })).toEqual(['d', 'e']);
    expect(read({ path: 'entities[0]', offset: 1 })).toEqual({
      observations: value.entities[0]?.observations,
    });
    expect(store.read(alice, id, { path: 'entities', offset: 2 })).toMatchObject({
      value: [],
      truncated: true,
    });
  });

  it('a part still too large for the reader comes cut, with pointers that go on from there', () => {
    const store = new MemoryObservationStore({ clock });
    const rows = Array.from({ length: 2_000 }, (_, i) => ({ id: i, note: `row number ${i}` }));
    const id = store.put(alice, { rows }, source) as string;
    const page = store.read(alice, id, { path: 'rows', offset: 100, maxTokens: 300 });
    const items = page?.value as JsonValue[];
    expect(page?.truncated).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(items))).toBeLessThanOrEqual(900);
    expect(items[0]).toEqual(rows[100]);
    const marker = items.at(-1) as { read_result: { offset: number } };
    expect(marker).toMatchObject({
      read_result: { id, path: 'rows', offset: 100 + items.length - 1 },
    });
    const next = store.read(alice, id, { path: 'rows', ...marker.read_result, maxTokens: 300 });
    expect((next?.value as JsonValue[])[0]).toEqual(rows[marker.read_result.offset]);
  });

  it('a path or page that is not there is refused with what is there instead', () => {
    const store = new MemoryObservationStore({ clock });
    const id = store.put(alice, { entities: [{ name: 'Alice' }] }, source) as string;
    const refusal = (options: object) => {
      try {
        store.read(alice, id, options);
      } catch (error) {
        expect(McpAgentError.isInstance(error)).toBe(true);
        return `${(error as McpAgentError).code}: ${(error as Error).message}`;
      }
      return 'no error';
    };
    expect(refusal({ path: 'entities[3]' })).toBe(
      'INVALID_ARGUMENTS: No value at entities[3]: entities has 1 items.',
    );
    expect(refusal({ path: 'entities[0].nmae' })).toBe(
      'INVALID_ARGUMENTS: No value at entities[0].nmae: entities[0] has no key "nmae" (its keys: name).',
    );
    expect(refusal({ path: 'entities.name' })).toMatch(
      /entities is an array of 1 items; use an index/,
    );
    expect(refusal({ path: 'entities[0' })).toMatch(
      /Invalid path "entities\[0": .* at character 9/,
    );
    expect(refusal({ path: 'entities', offset: 5 })).toMatch(
      /offset 5 is past the end: .* 1 items/,
    );
    expect(refusal({ path: 'entities[0].name', offset: -1 })).toMatch(
      /offset must be a whole number/,
    );
    expect(refusal({ path: 'entities', limit: 0 })).toMatch(/limit must be a whole number ≥ 1/);
  });

  it('a read always shows something of what it points at, or says it cannot: never the same marker again', () => {
    const store = new MemoryObservationStore({ clock });
    const key = 'k'.repeat(400); // a path longer than a 100-token answer
    const list = Array.from({ length: 100 }, (_, i) => `item ${i}`);
    const id = store.put(alice, { [key]: { [key]: list } }, source) as string;
    const path = `${key}.${key}`;
    expect(() => store.read(alice, id, { path, maxTokens: 100 })).toThrow(
      /cannot be shown in 100 tokens: even a pointer into it is longer\. Read it with a larger budget\./,
    );
    const page = store.read(alice, id, { path, maxTokens: 1_000 })?.value as string[];
    expect(page.slice(0, 3)).toEqual(['item 0', 'item 1', 'item 2']);
  });

  it('holds nothing for ever: entries expire after the TTL, and counts and bytes are bounded per tenant and in all', () => {
    const store = new MemoryObservationStore({
      clock,
      ttlMs: 60_000,
      maxPerTenant: 3,
      maxBytesPerTenant: 1_000,
      maxBytes: 1_500,
    });
    const ids = [1, 2, 3, 4].map((n) => store.put(alice, { n }, source) as string);
    expect(store.stats()).toMatchObject({ tenants: 1, observations: 3 });
    expect(store.get(alice, ids[0] as string)).toBeUndefined(); // the oldest gave way
    // Bytes per tenant: a 600-byte result pushes out the older ones past 1,000.
    store.put(alice, 'x'.repeat(600), source);
    expect(store.stats().bytes).toBeLessThanOrEqual(1_000);
    // Bytes in all: bob's results push out the oldest, whoever's they are.
    store.put(bob, 'y'.repeat(600), source);
    store.put(bob, 'z'.repeat(600), source);
    expect(store.stats().bytes).toBeLessThanOrEqual(1_500);
    // Larger than a tenant may hold: not kept at all.
    expect(store.put(bob, 'w'.repeat(1_200), source)).toBeUndefined();
    clock.advance(60_001);
    expect(store.stats()).toEqual({ tenants: 0, observations: 0, bytes: 0 });
  });

  it('keeps media whole, so that an image can be written to a file', () => {
    const store = new MemoryObservationStore({ clock });
    const data = Buffer.from('a real PNG would be here').toString('base64');
    const id = store.put(alice, [{ type: 'image', mimeType: 'image/png', data }], source) as string;
    expect(store.get(alice, id)?.value).toEqual([{ type: 'image', mimeType: 'image/png', data }]);
    // Read through its pointer, it is described, with its base64 as text (never a pointer back
    // to itself, which would send the reader round in circles).
    expect(store.read(alice, id, { path: '[0]' })).toMatchObject({
      value: { type: 'image', mimeType: 'image/png', bytes: 24, data },
      truncated: false,
    });
  });
});
