import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { dialects, reportSkippedPostgres } from '../../store/contract-tests/dialects.js';
import { SqliteChangeFeed } from '../../store/changes/sqlite-change-feed.js';
import type { Registry } from '../../registry.js';
import type { SharedDatabase } from '../../testing/index.js';
import { ConnectionPool } from './connection-pool.js';
import { misbehaving, servers } from './pool-test-helpers.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// Live children of this test process running the fixture with `tag` on their command line.
function children(tag: string): number {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return (
          fields[0] !== 'Z' &&
          Number(fields[1]) === process.pid &&
          cmdline.includes(servers.misbehaving) &&
          cmdline.includes(tag)
        );
      } catch {
        return false;
      }
    }).length;
}

// Counts, not timings: the limit is the catalogue's 2 s, with the poll at its default 1 s.
async function within2s(check: () => boolean | Promise<boolean>): Promise<void> {
  await expect.poll(check, { timeout: 2_000, interval: 50 }).toBe(true);
}

reportSkippedPostgres();

describe.each(dialects)('changes made by another process ($name)', (dialect) => {
  let shared: SharedDatabase;
  let server: Registry;
  let cli: Registry;
  let pool: ConnectionPool;

  const open = async () => {
    // `server` holds connections, as a running mcp-agent-server does; `cli` is the other
    // process on the same database (the CLI beside it on SQLite, a second server on PostgreSQL).
    shared = await dialect.openMany(2);
    [server, cli] = shared.registries as [Registry, Registry];
    pool = new ConnectionPool(server, { pingIntervalMs: 0, idleMs: 0, attempts: 1 });
    cleanups.push(
      () => shared.close(),
      () => pool.close(),
    );
  };

  it('LOAD-11 a server removed, disabled or edited elsewhere stops or restarts the held connection within 2 s', async () => {
    await open();
    const alice = createContext({ userId: 'alice' });
    await cli.addServer(alice, misbehaving('removed', 'normal', ['tag-removed']));
    await cli.addServer(alice, misbehaving('disabled', 'normal', ['tag-disabled']));
    await cli.addServer(alice, misbehaving('edited', 'normal', ['tag-edited-v1']));
    await pool.waitForReady(alice, ['removed', 'disabled', 'edited']);
    expect(pool.size).toBe(3);
    expect(children('tag-removed') + children('tag-disabled') + children('tag-edited-v1')).toBe(3);

    await cli.removeServer(alice, 'removed');
    await within2s(() => children('tag-removed') === 0);
    await cli.setServerEnabled(alice, 'disabled', false);
    await within2s(() => children('tag-disabled') === 0);
    await cli.addServer(alice, misbehaving('edited', 'normal', ['tag-edited-v2']));
    await within2s(() => children('tag-edited-v1') === 0);
    expect(pool.size).toBe(0);

    // The tenant's servers follow: the removed and disabled ones are gone from what it may use,
    // and the edited one starts again from its new definition.
    const active = (await server.availability(createContext({ userId: 'alice' }))).active;
    expect(active.map((s) => s.id)).toEqual(['edited']);
    await pool.waitForReady(alice, ['edited']);
    expect(children('tag-edited-v2')).toBe(1);
    expect(children('tag-edited-v1')).toBe(0);
  });

  it("LOAD-11 another tenant's connection is untouched by a change elsewhere", async () => {
    await open();
    const alice = createContext({ userId: 'alice' });
    const bob = createContext({ userId: 'bob' });
    await cli.addServer(alice, misbehaving('notes', 'normal', ['tag-alice']));
    await cli.addServer(bob, misbehaving('notes', 'normal', ['tag-bob']));
    await pool.waitForReady(alice, ['notes']);
    await pool.waitForReady(bob, ['notes']);
    await cli.removeServer(alice, 'notes');
    await within2s(() => children('tag-alice') === 0);
    expect(children('tag-bob')).toBe(1);
    expect(pool.status(bob)).toHaveLength(1);
  });
});

describe.each(dialects.filter((dialect) => dialect.name === 'sqlite'))(
  'the SQLite feed ($name)',
  (dialect) => {
    it('LOAD-11 polls data_version only while the pool holds connections, and catches up when it holds again', async () => {
      const shared = await dialect.openMany(1);
      const cli = shared.registries[0] as Registry;
      // The timer is a minute: this test polls by hand.
      const server = await shared.another({ changeFeed: { pollMs: 60_000 } });
      const feed = server.changeFeed as SqliteChangeFeed;
      expect(feed).toBeInstanceOf(SqliteChangeFeed);
      const pool = new ConnectionPool(server, { pingIntervalMs: 0, idleMs: 0, attempts: 1 });
      cleanups.push(
        () => shared.close(),
        () => pool.close(),
      );
      const alice = createContext({ userId: 'alice' });
      const heard: string[] = [];
      server.events.on('server-registered', (change) => heard.push(change.serverId));

      // Nothing held: a poll asks nothing of the database.
      await cli.addServer(alice, misbehaving('early', 'normal', ['tag-early']));
      const before = feed.polls;
      await feed.poll();
      expect(feed.polls).toBe(before);
      expect(heard).toEqual([]);

      // Held: the poll notices the other connection's write and delivers what it missed.
      await pool.connection(alice, 'early');
      await feed.poll();
      expect(feed.polls).toBe(before + 1);
      expect(heard).toEqual(['early']);
      // Nothing new written: the pragma answers the same and the log is not read again.
      await feed.poll();
      expect(heard).toEqual(['early']);
      // Its own writes come back to nobody.
      await server.addServer(alice, misbehaving('own', 'normal'));
      await cli.addServer(alice, misbehaving('later', 'normal'));
      await feed.poll();
      expect(heard).toEqual(['early', 'own', 'later']);
    });
  },
);
