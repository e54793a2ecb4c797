import { describe, expect, it } from 'vitest';
import { InMemorySearchIndex } from '../testing/index.js';
import type { SearchDocument } from './search-document.js';
import type { SearchIndex } from './search-index.js';
import { ToolSearchIndex } from './tool-search-index.js';

const doc = (server: string, name: string, description: string): SearchDocument => ({
  id: `${server}.${name}`,
  server,
  name,
  description,
  parameters: [],
});

// Every implementation of the seam: the product's and the double in ./testing.
const implementations: { name: string; create: () => SearchIndex }[] = [
  { name: 'ToolSearchIndex', create: () => new ToolSearchIndex() },
  { name: 'InMemorySearchIndex', create: () => new InMemorySearchIndex() },
];

describe.each(implementations)('SearchIndex contract: $name', ({ create }) => {
  function sample(): SearchIndex {
    const index = create();
    index.setServer('github', [
      doc('github', 'create_issue', 'Create an issue in a repository'),
      doc('github', 'list_issues', 'List the issues of a repository'),
    ]);
    index.setServer('mail', [doc('mail', 'send_email', 'Send an email message')]);
    return index;
  }

  it('holds what was set, per server, and says when it changed', () => {
    const index = sample();
    expect(index.size).toBe(3);
    expect(index.servers().sort()).toEqual(['github', 'mail']);
    expect(index.get('mail.send_email')?.description).toBe('Send an email message');
    expect([...index.documents()].map((d) => d.id).sort()).toEqual([
      'github.create_issue',
      'github.list_issues',
      'mail.send_email',
    ]);
    const version = index.version;
    index.setServer('mail', [doc('mail', 'read_email', 'Read an email message')]);
    expect(index.version).not.toBe(version);
    expect(index.get('mail.send_email')).toBeUndefined();
    const changed = index.version;
    index.removeServer('github');
    index.removeServer('never-there');
    expect(index.version).not.toBe(changed);
    expect(index.size).toBe(1);
    expect(index.search('issue')).toEqual([]);
  });

  it('ranks matches with a relevance in 0–1, within the servers and limit asked', () => {
    const index = sample();
    const hits = index.search('send an email message', { limit: 5 });
    expect(hits[0]).toMatchObject({ id: 'mail.send_email', server: 'mail', name: 'send_email' });
    expect(hits[0]!.relevance).toBeGreaterThanOrEqual(index.goodMatch);
    for (const hit of hits) expect(hit.relevance).toBeGreaterThanOrEqual(0);
    for (const hit of hits) expect(hit.relevance).toBeLessThanOrEqual(1);
    expect(index.search('issue', { servers: ['mail'] })).toEqual([]);
    expect(index.search('issue repository', { limit: 1 })).toHaveLength(1);
    expect(index.goodMatch).toBeGreaterThan(0);
    expect(index.goodMatch).toBeLessThanOrEqual(1);
  });
});
