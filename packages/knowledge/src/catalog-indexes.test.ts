import { describe, expect, it } from 'vitest';
import { CatalogIndexes, serverKey } from './catalog-indexes.js';
import type { SearchDocument } from './search/search-document.js';
import { ToolSearchIndex } from './search/tool-search-index.js';

const doc = (server: string, name: string, description: string): SearchDocument => ({
  id: `${server}.${name}`,
  server,
  name,
  description,
  parameters: [],
});
const tools: Record<string, SearchDocument[]> = {
  github: [doc('github', 'create_issue', 'Create an issue')],
  mail: [doc('mail', 'send_email', 'Send an email')],
  mail2: [doc('mail', 'send_email', 'Send an email'), doc('mail', 'read_email', 'Read mail')],
};

function setup(maxIndexes = 10) {
  const created: ToolSearchIndex[] = [];
  const indexes = new CatalogIndexes({
    createIndex: () => {
      created.push(new ToolSearchIndex());
      return created.at(-1)!;
    },
    maxIndexes,
    now: Date.now,
  });
  const loads: string[] = [];
  const documents = (version: Record<string, string>) => (id: string) => {
    loads.push(id);
    return tools[version[id] ?? id]!;
  };
  return { indexes, created, loads, documents };
}

describe('CatalogIndexes', () => {
  it('gives tenants with the same catalog one index, built once', () => {
    const { indexes, created, loads, documents } = setup();
    const catalog = [
      { id: 'github', key: 'g1' },
      { id: 'mail', key: 'm1' },
    ];
    const a = indexes.acquire('alice', catalog, documents({}));
    const b = indexes.acquire('bob', [...catalog].reverse(), documents({}));
    expect(b).toBe(a);
    expect(created).toHaveLength(1);
    expect(loads.sort()).toEqual(['github', 'mail']);
    expect(a.index.size).toBe(2);
  });

  it('a shared index is never changed in place: the tenant whose catalog changed gets a new one', () => {
    const { indexes, created, loads, documents } = setup();
    const before = [
      { id: 'github', key: 'g1' },
      { id: 'mail', key: 'm1' },
    ];
    const shared = indexes.acquire('alice', before, documents({}));
    indexes.acquire('bob', before, documents({}));
    loads.length = 0;
    const changed = indexes.acquire(
      'alice',
      [
        { id: 'github', key: 'g1' },
        { id: 'mail', key: 'm2' },
      ],
      documents({ mail: 'mail2' }),
      shared.signature,
    );
    expect(changed).not.toBe(shared);
    expect(created).toHaveLength(2);
    // Only the changed server was read; the unchanged one's documents were lent.
    expect(loads).toEqual(['mail']);
    expect(changed.index.get('mail.read_email')).toBeDefined();
    expect(shared.index.get('mail.read_email')).toBeUndefined();
    expect(indexes.get(shared.signature)).toBe(shared);
  });

  it('an index only one tenant has ever taken is changed in place, per server', () => {
    const { indexes, created, loads, documents } = setup();
    const own = indexes.acquire('alice', [{ id: 'mail', key: 'm1' }], documents({}));
    loads.length = 0;
    const next = indexes.acquire(
      'alice',
      [
        { id: 'mail', key: 'm2' },
        { id: 'github', key: 'g1' },
      ],
      documents({ mail: 'mail2' }),
      own.signature,
    );
    expect(next).toBe(own);
    expect(created).toHaveLength(1);
    expect(loads.sort()).toEqual(['github', 'mail']);
    expect(own.index.size).toBe(3);
    const dropped = indexes.acquire(
      'alice',
      [{ id: 'github', key: 'g1' }],
      documents({}),
      next.signature,
    );
    expect(dropped).toBe(own);
    expect(own.index.servers()).toEqual(['github']);
  });

  it('holds at most maxIndexes catalogs, least recently used dropped first', () => {
    const { indexes, created, documents } = setup(2);
    const first = indexes.acquire('a', [{ id: 'github', key: '1' }], documents({}));
    indexes.acquire('b', [{ id: 'github', key: '2' }], documents({}));
    indexes.get(first.signature);
    indexes.acquire('c', [{ id: 'github', key: '3' }], documents({}));
    expect(indexes.size).toBe(2);
    expect(indexes.get(first.signature)).toBe(first);
    expect(created).toHaveLength(3);
  });

  it('server keys depend on every tool definition, not on their order', () => {
    const a = { name: 'a', contentHash: 'x' };
    const b = { name: 'b', contentHash: 'y' };
    expect(serverKey([a, b])).toBe(serverKey([b, a]));
    expect(serverKey([a, b])).not.toBe(serverKey([a, { ...b, contentHash: 'z' }]));
    expect(serverKey([a])).not.toBe(serverKey([a, b]));
  });
});
