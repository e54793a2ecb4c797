import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { channelFor } from '../changes/postgres-change-feed.js';
import {
  openRegistry,
  type RegistryChange,
  type RegistryEvents,
  type Registry,
} from '../../index.js';
import { MemoryChangeHub, type SharedDatabase } from '../../testing/index.js';
import { randomKey } from '../../testing/test-registry.js';
import { dialects, reportSkippedPostgres } from './dialects.js';

const alice = createContext({ userId: 'alice' });
const server = (id: string, url = `https://${id}.example/mcp`) => ({
  id,
  transport: 'streamable-http',
  url,
  headers: { Authorization: 'Bearer change-feed-secret' },
});

/** Two registries that stand for two processes on one database. */
interface Pair {
  readonly a: Registry;
  readonly b: Registry;
  close(): Promise<void>;
}

const implementations: { name: string; open(): Promise<Pair> }[] = [
  {
    name: 'memory',
    async open() {
      const hub = new MemoryChangeHub();
      const env = { MCP_AGENT_SECRET_KEY: randomKey() };
      const a = await openRegistry({ url: ':memory:', env, changeFeed: hub.feed() });
      const b = await openRegistry({ url: ':memory:', env, changeFeed: hub.feed() });
      return { a, b, close: async () => void (await Promise.all([a.close(), b.close()])) };
    },
  },
  ...dialects.map((dialect) => ({
    name: dialect.name === 'postgres' ? 'postgres (LISTEN/NOTIFY)' : 'sqlite (data_version)',
    async open(): Promise<Pair> {
      if (dialect.name === 'postgres') {
        const { registries, close } = await dialect.openMany(2);
        const [a, b] = registries as [Registry, Registry];
        return { a, b, close };
      }
      // SQLite polls once a second by default; "within a second" needs a shorter poll.
      const shared = await dialect.openMany(0);
      const a = await shared.another({ changeFeed: { pollMs: 200 } });
      const b = await shared.another({ changeFeed: { pollMs: 200 } });
      return { a, b, close: () => shared.close() };
    },
  })),
];

// Every event B's registry emits, in order.
function record(registry: Registry): RegistryChange[] {
  const heard: RegistryChange[] = [];
  for (const kind of [
    'server-registered',
    'server-updated',
    'server-removed',
    'state-changed',
    'catalog-changed',
  ] as const)
    registry.events.on(kind, (change: RegistryEvents[typeof kind][0]) =>
      heard.push({ kind, change } as RegistryChange),
    );
  return heard;
}

async function until(check: () => boolean, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return performance.now() - started;
}

reportSkippedPostgres();

describe.each(implementations)('registry changes across processes: $name', ({ open }) => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await open();
  }, 60_000);
  afterAll(async () => {
    await pair?.close();
  });

  it('a server added, changed and removed in one process is heard in the other within a second, in order, as the same events', async () => {
    const onA = record(pair.a);
    const onB = record(pair.b);
    await pair.a.addServer(alice, server('github'));
    const elapsed = await until(() => onB.length >= 1, 1_000);
    expect(elapsed).toBeLessThan(1_000);
    await pair.a.addServer(alice, server('github', 'https://github.example/v2/mcp'));
    await pair.a.removeServer(alice, 'github');
    await until(() => onB.length >= 3, 1_000);
    const expected = ['server-registered', 'server-updated', 'server-removed'].map((kind) => ({
      kind,
      change: { userId: 'alice', serverId: 'github', scope: 'user' },
    }));
    expect(onB).toEqual(expected);
    // A heard its own changes once, from itself, and nothing came back to it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(onA).toEqual(expected);
    // Nothing of a secret travels.
    expect(JSON.stringify(onB)).not.toContain('change-feed-secret');
  });

  it('readiness and catalog changes carry their details', async () => {
    const onB = record(pair.b);
    await pair.a.addServer(alice, server('docs'));
    await pair.a.recordState(alice, 'docs', { status: 'failed', lastError: 'refused' });
    await pair.a.replaceCatalog(alice, 'docs', [
      { name: 'search_docs', inputSchema: { type: 'object' } },
    ]);
    await until(() => onB.some((c) => c.kind === 'catalog-changed'), 1_000);
    expect(onB.find((c) => c.kind === 'state-changed')).toEqual({
      kind: 'state-changed',
      change: {
        userId: 'alice',
        serverId: 'docs',
        scope: 'user',
        status: 'failed',
        lastError: 'refused',
      },
    });
    expect(onB.find((c) => c.kind === 'catalog-changed')?.change).toMatchObject({
      userId: 'alice',
      serverId: 'docs',
      update: { version: 1, added: ['search_docs'], removed: [], changed: [] },
    });
  });
});

describe.each(dialects.filter((d) => d.name === 'postgres'))(
  'the database is the source of truth ($name)',
  (dialect) => {
    let many: SharedDatabase;
    beforeAll(async () => {
      many = await dialect.openMany(2);
    }, 60_000);
    afterAll(async () => {
      await many?.close();
    });

    it("a request memoised before another process's change reads the change after it is heard", async () => {
      const [a, b] = many.registries as [Registry, Registry];
      const ctx = createContext({ userId: 'bob' });
      expect((await b.availability(ctx)).servers).toEqual([]);
      const heard = record(b);
      await a.addServer(ctx, server('notes'));
      await until(() => heard.length > 0, 1_000);
      expect((await b.availability(ctx)).servers.map((s) => s.id)).toEqual(['notes']);
    });

    it('a process whose feed lost its connection reconnects, and catches up from the log what it missed', async () => {
      const [a] = many.registries as [Registry];
      // B reads the log only on a notice or after a minute: whatever it hears within seconds
      // came through LISTEN, or through the catch-up read that follows a reconnect.
      const b = await many.another({ changeFeed: { pollMs: 60_000 } });
      const heard = record(b);
      // Cut every LISTEN connection of this schema's channel, then change things while they
      // are down: the notices are lost, the log is not.
      const admin = new pg.Client({ connectionString: process.env.MCP_AGENT_TEST_DATABASE_URL });
      await admin.connect();
      try {
        const { rows } = await admin.query<{ pid: number }>(
          `select pid from pg_stat_activity where query = $1 and pid <> pg_backend_pid()`,
          [`listen "${channelFor(many.schema)}"`],
        );
        expect(rows.length).toBeGreaterThanOrEqual(2);
        await admin.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [
          rows.map((row) => row.pid),
        ]);
      } finally {
        await admin.end();
      }
      const carol = createContext({ userId: 'carol' });
      await a.addServer(carol, server('calendar'));
      await a.removeServer(carol, 'calendar');
      await until(() => heard.length >= 2, 10_000);
      expect(heard.map((c) => c.kind)).toEqual(['server-registered', 'server-removed']);
      // Listening again: a new change arrives by notice, within a second.
      await a.addServer(carol, server('calendar'));
      expect(await until(() => heard.length >= 3, 1_000)).toBeLessThan(1_000);
    });
  },
);
