import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext, type ServerConfig } from '@mcp-agent/core';
import { createManualClock } from '@mcp-agent/core/testing';
import type { Registry } from '@mcp-agent/registry';
import { createTestRegistry } from '@mcp-agent/registry/testing';
import { Knowledge } from './knowledge.js';
import type { SearchIndex } from './search/search-index.js';
import { ToolSearchIndex } from './search/tool-search-index.js';

const appServers: ServerConfig[] = ['github', 'mail'].map((id) => ({
  id,
  transport: 'streamable-http',
  url: `https://${id}.example/mcp`,
  headers: {},
  enabled: true,
}));
const catalogs: Record<string, object[]> = {
  github: [
    { name: 'create_issue', description: 'Create an issue in a repository' },
    { name: 'list_issues', description: 'List the issues of a repository' },
  ],
  mail: [{ name: 'send_email', description: 'Send an email message' }],
};
const tenants = ['alice', 'bob', 'carol'].map((userId) => createContext({ userId }));

describe('one search index per catalog, shared by tenants', () => {
  let registry: Registry;
  let created: SearchIndex[];
  let knowledge: Knowledge;
  beforeEach(async () => {
    registry = await createTestRegistry({ appServers });
    created = [];
    knowledge = new Knowledge({
      registry,
      createIndex: () => {
        created.push(new ToolSearchIndex());
        return created.at(-1)!;
      },
      maxIndexes: 3,
      maxTenants: 2,
    });
    for (const ctx of tenants) {
      for (const [id, tools] of Object.entries(catalogs)) {
        await registry.recordState(ctx, id, { status: 'ready' });
        await registry.replaceCatalog(ctx, id, tools);
      }
    }
  });
  afterEach(async () => {
    await registry.close();
  });

  it('tenants with the same app servers share one index, each filtered by its availability', async () => {
    const [alice, bob] = tenants as [(typeof tenants)[0], (typeof tenants)[0]];
    await registry.recordState(bob, 'mail', { status: 'failed', lastError: 'down' });
    const forAlice = await knowledge.search(alice, 'send an email message', { limit: 10 });
    const forBob = await knowledge.search(bob, 'send an email message', { limit: 10 });
    expect(created).toHaveLength(1);
    expect(forAlice.map((r) => r.tool_id)).toContain('mail.send_email');
    expect(forBob.map((r) => r.tool_id)).not.toContain('mail.send_email');
    const limited = createContext({ userId: 'alice', allowServers: ['mail'] });
    expect(
      (await knowledge.search(limited, 'create an issue or an email', { limit: 10 })).map(
        (r) => r.tool_id,
      ),
    ).toEqual(['mail.send_email']);
    expect(created).toHaveLength(1);
  });

  it("a tenant whose catalog changes gets its own index; the others' stays as it was", async () => {
    const [alice, bob] = tenants as [(typeof tenants)[0], (typeof tenants)[0]];
    await knowledge.search(alice, 'issue');
    await knowledge.search(bob, 'issue');
    await registry.replaceCatalog(bob, 'github', [
      ...catalogs.github!,
      { name: 'close_issue', description: 'Close an issue' },
    ]);
    expect((await knowledge.search(bob, 'close_issue'))[0]?.tool_id).toBe('github.close_issue');
    expect(created).toHaveLength(2);
    expect(
      (await knowledge.search(alice, 'close issue', { limit: 10 })).map((r) => r.tool_id),
    ).not.toContain('github.close_issue');
    // Bob alone took the new index: his next change is made in place.
    await registry.replaceCatalog(bob, 'mail', []);
    expect(
      (await knowledge.search(bob, 'send email', { limit: 10 })).map((r) => r.tool_id),
    ).not.toContain('mail.send_email');
    expect(created).toHaveLength(2);
  });

  it('holds at most maxIndexes catalogs and maxTenants tenants', async () => {
    for (const [i, ctx] of tenants.entries()) {
      // A catalog of its own for each tenant.
      await registry.replaceCatalog(ctx, 'mail', [
        { name: `send_email_${i}`, description: 'Send an email message' },
      ]);
      await knowledge.search(ctx, 'send');
    }
    expect(knowledge.cacheSizes()).toEqual({ indexes: 3, tenants: 2 });
    const extra = createContext({ userId: 'dave' });
    for (const [id, tools] of Object.entries(catalogs)) {
      await registry.recordState(extra, id, { status: 'ready' });
      await registry.replaceCatalog(extra, id, tools);
    }
    await knowledge.search(extra, 'send');
    expect(knowledge.cacheSizes()).toEqual({ indexes: 3, tenants: 2 });
  });

  it('LOAD-12 drops the indexes and tenants no request used for idleMs, and rebuilds them on the next search', async () => {
    const clock = createManualClock();
    const idle = new Knowledge({ registry, idleMs: 60_000, clock });
    try {
      const [alice, bob, carol] = tenants as [
        (typeof tenants)[0],
        (typeof tenants)[0],
        (typeof tenants)[0],
      ];
      await registry.replaceCatalog(carol, 'mail', [
        { name: 'send_fax', description: 'Send a fax' },
      ]);
      await idle.search(alice, 'send');
      await idle.search(carol, 'send');
      expect(idle.cacheSizes()).toEqual({ indexes: 2, tenants: 2 });
      clock.advance(40_000);
      // Bob's search keeps the index he shares with Alice; Carol's own is not touched again.
      await idle.search(bob, 'send');
      clock.advance(30_000);
      expect(idle.evictIdle()).toEqual({ indexes: 1, tenants: 2 });
      expect(idle.cacheSizes()).toEqual({ indexes: 1, tenants: 1 });
      clock.advance(60_001);
      expect(idle.evictIdle()).toEqual({ indexes: 1, tenants: 1 });
      expect(idle.cacheSizes()).toEqual({ indexes: 0, tenants: 0 });
      expect((await idle.search(carol, 'send a fax'))[0]?.tool_id).toBe('mail.send_fax');
      expect(idle.cacheSizes()).toEqual({ indexes: 1, tenants: 1 });
    } finally {
      idle.close();
    }
  });

  it("a tenant's own server description ranks only in its own index, never in one another tenant shares", async () => {
    const [alice, bob] = tenants as [(typeof tenants)[0], (typeof tenants)[0]];
    // The same user server (id and tools) for both; only Alice's says what it is for.
    for (const [ctx, description] of [
      [alice, 'Family recipes and weekly meal plans.'],
      [bob, undefined],
    ] as const) {
      await registry.addServer(ctx, {
        id: 'notes',
        transport: 'streamable-http',
        url: 'https://notes.example/mcp',
        ...(description === undefined ? {} : { description }),
      });
      await registry.replaceCatalog(ctx, 'notes', [
        { name: 'add_note', description: 'Add a note' },
      ]);
      await registry.recordState(ctx, 'notes', { status: 'ready' });
    }
    const forAlice = await knowledge.searchMany(alice, 'plan the meals of the week');
    const forBob = await knowledge.searchMany(bob, 'plan the meals of the week');
    expect(forAlice.queries[0]!.best_servers).toEqual(['notes']);
    expect(forBob.queries[0]!.best_servers ?? []).not.toContain('notes');
    expect(created).toHaveLength(2);
  });
});
