import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { migrateToLatest, migrations, openDatabase, openRegistry } from '../../index.js';
import { randomKey } from '../../testing/test-registry.js';
import { repositoriesOf } from '../tenant-store.js';
import { reportSkippedPostgres } from './dialects.js';

// A database made before the server_id rename (migrations 0001–0005, columns named provider_id)
// upgrades in place: its rows are read back under the new name and its unique keys still hold.
// The same for usage's connector column (migration 0007, usage_tools.server).

interface Target {
  readonly name: string;
  /** Where the database is: options for `openDatabase` and `openRegistry`, and how to drop it. */
  where(): { options: { url?: string; home?: string; schema?: string }; drop(): Promise<void> };
}

const targets: Target[] = [
  {
    name: 'sqlite',
    where() {
      const home = mkdtempSync(join(tmpdir(), 'mcp-server-id-'));
      return {
        options: { home },
        drop: async () => rmSync(home, { recursive: true, force: true }),
      };
    },
  },
];
const pgUrl = process.env.MCP_AGENT_TEST_DATABASE_URL;
if (pgUrl) {
  targets.push({
    name: 'postgres',
    where() {
      const schema = `sid_${randomBytes(4).toString('hex')}`;
      return {
        options: { url: pgUrl, schema },
        drop: async () => {
          const database = await openDatabase({ url: pgUrl, schema, migrate: false });
          await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(database.db);
          await database.close();
        },
      };
    },
  });
}

const drops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const drop of drops.splice(0)) await drop();
});

reportSkippedPostgres();

/** The migrations a database had before `name`. */
const before = (name: string) =>
  Object.fromEntries(Object.entries(migrations).filter(([known]) => known < name));

/** The rows a tenant of version 0005 had for server "github", written as that version did. */
async function seedBeforeRename(db: Kysely<unknown>): Promise<void> {
  const now = new Date().toISOString();
  await sql`insert into users (id, created_at, updated_at) values ('alice', ${now}, ${now})`.execute(
    db,
  );
  const config = JSON.stringify({
    id: 'github',
    transport: 'http',
    url: 'https://example.test/mcp',
  });
  await sql`insert into mcp_connections (id, user_id, provider_id, scope, transport, config,
      enabled, status, last_error, attempts, last_sync_at, tool_count, catalog_version, created_at,
      updated_at)
    values ('c1', 'alice', 'github', 'user', 'http', ${config}, 1, 'pending', null, 0, null, null,
      0, ${now}, ${now})`.execute(db);
  await sql`insert into auth_configs (id, user_id, provider_id, kind, settings, created_at, updated_at)
    values ('a1', 'alice', 'github', 'oauth', '{}', ${now}, ${now})`.execute(db);
  await sql`insert into connected_accounts (id, user_id, provider_id, status, provider_uid,
      created_at, updated_at)
    values ('k1', 'alice', 'github', 'active', 'uid-1', ${now}, ${now})`.execute(db);
  await sql`insert into thread_activations (user_id, thread_id, provider_id, created_at)
    values ('alice', 't1', 'github', ${now})`.execute(db);
  await sql`insert into registry_changes (user_id, provider_id, kind, scope, detail, origin,
      created_at)
    values ('alice', 'github', 'server-registered', 'user', '{}', 'old-process', ${now})`.execute(
    db,
  );
}

describe.each(targets)('the server_id rename on $name (migration 0006)', (target) => {
  it('an existing database upgrades: every row is read under server_id and the unique keys still hold', async () => {
    const { options, drop } = target.where();
    drops.push(drop);
    const old = await openDatabase({ ...options, migrate: false });
    try {
      const schema = options.schema === undefined ? {} : { schema: options.schema };
      await migrateToLatest(old.db as Kysely<unknown>, {
        migrations: before('0006_server_id'),
        ...schema,
      });
      await seedBeforeRename(old.db as Kysely<unknown>);
      // The renames run first; later migrations (added since) follow them.
      expect((await migrateToLatest(old.db as Kysely<unknown>, schema)).slice(0, 2)).toEqual([
        '0006_server_id',
        '0007_usage_server',
      ]);
      const columns = new Map(
        (await (old.db as Kysely<unknown>).introspection.getTables())
          .filter((t) => options.schema === undefined || t.schema === options.schema)
          .map((t) => [t.name, t.columns.map((c) => c.name)]),
      );
      for (const table of [
        'auth_configs',
        'connected_accounts',
        'mcp_connections',
        'thread_activations',
        'registry_changes',
      ]) {
        expect(columns.get(table)).toContain('server_id');
        expect(columns.get(table)).not.toContain('provider_id');
      }
    } finally {
      await old.close();
    }

    const registry = await openRegistry({ ...options, env: { MCP_AGENT_SECRET_KEY: randomKey() } });
    try {
      const alice = createContext({ userId: 'alice' });
      const stored = repositoriesOf(registry);
      expect((await stored.connections.list(alice)).map((r) => r.serverId)).toEqual(['github']);
      expect(await stored.authConfigs.find(alice, 'github')).toMatchObject({
        serverId: 'github',
        kind: 'oauth',
      });
      expect(await stored.accounts.find(alice, 'github')).toMatchObject({
        serverId: 'github',
        providerUid: 'uid-1',
      });
      expect(await stored.threads.list(alice, 't1')).toEqual(['github']);
      // The unique keys were carried over to the renamed column: an upsert updates the row.
      await stored.authConfigs.upsert(alice, { serverId: 'github', kind: 'none' });
      await stored.accounts.upsert(alice, { serverId: 'github', status: 'disconnected' });
      expect(await stored.authConfigs.find(alice, 'github')).toMatchObject({ kind: 'none' });
      expect(await stored.accounts.find(alice, 'github')).toMatchObject({
        status: 'disconnected',
      });
    } finally {
      await registry.close();
    }
  }, 60_000);
});

describe.each(targets)('the usage_tools.server rename on $name (migration 0007)', (target) => {
  it('an existing database upgrades: tool-call usage is read by server and its key still holds', async () => {
    const { options, drop } = target.where();
    drops.push(drop);
    const old = await openDatabase({ ...options, migrate: false });
    const day = new Date().toISOString().slice(0, 10);
    try {
      const db = old.db as Kysely<unknown>;
      const schema = options.schema === undefined ? {} : { schema: options.schema };
      await migrateToLatest(db, { migrations: before('0007_usage_server'), ...schema });
      const now = new Date().toISOString();
      await sql`insert into usage_tools (user_id, task_id, connector, day, calls, errors,
          duration_ms, created_at, updated_at)
        values ('alice', 'task-1', 'github', ${day}, 2, 1, 30, ${now}, ${now})`.execute(db);
      expect((await migrateToLatest(db, schema)).slice(0, 1)).toEqual(['0007_usage_server']);
      const columns = (await db.introspection.getTables()).find(
        (t) =>
          t.name === 'usage_tools' && (options.schema === undefined || t.schema === options.schema),
      )?.columns;
      expect(columns?.map((c) => c.name)).toContain('server');
      expect(columns?.map((c) => c.name)).not.toContain('connector');
    } finally {
      await old.close();
    }

    const registry = await openRegistry({ ...options, env: { MCP_AGENT_SECRET_KEY: randomKey() } });
    try {
      const alice = createContext({ userId: 'alice' });
      const { usage } = repositoriesOf(registry);
      expect((await usage.task(alice, 'task-1')).servers).toEqual([
        { server: 'github', calls: 2, errors: 1, durationMs: 30 },
      ]);
      // The primary key followed the column: another call is added to the same row.
      await usage.recordToolCall(alice, {
        taskId: 'task-1',
        server: 'github',
        ok: true,
        durationMs: 5,
      });
      expect((await usage.task(alice, 'task-1')).servers).toEqual([
        { server: 'github', calls: 3, errors: 1, durationMs: 35 },
      ]);
      expect((await usage.summary(alice)).servers).toEqual([
        { server: 'github', calls: 3, errors: 1, durationMs: 35 },
      ]);
    } finally {
      await registry.close();
    }
  }, 60_000);
});
