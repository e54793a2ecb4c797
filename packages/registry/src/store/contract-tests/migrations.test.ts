import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '@mcp-agent/core';
import { migrateToLatest, migrations, openDatabase, type OpenDatabase } from '../../index.js';
import { reportSkippedPostgres } from './dialects.js';

const targets: { name: string; open: () => Promise<{ db: OpenDatabase; schema?: string }> }[] = [
  {
    name: 'sqlite',
    open: async () => ({ db: await openDatabase({ url: ':memory:', migrate: false }) }),
  },
];
const pgUrl = process.env.MCP_AGENT_TEST_DATABASE_URL;
if (pgUrl) {
  targets.push({
    name: 'postgres',
    open: async () => {
      const schema = `mig_${randomBytes(4).toString('hex')}`;
      const db = await openDatabase({ url: pgUrl, schema, migrate: false });
      schemas.push({ db, schema });
      return { db, schema };
    },
  });
}

const opened: OpenDatabase[] = [];
const schemas: { db: OpenDatabase; schema: string }[] = [];
afterEach(async () => {
  // Dropped, as every test schema is: the migrator introspects every schema of the database.
  for (const { db, schema } of schemas.splice(0))
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db.db);
  await Promise.all(opened.splice(0).map((d) => d.close()));
});

async function tableNames(db: Kysely<unknown>, schema?: string): Promise<string[]> {
  const tables = await db.introspection.getTables();
  return tables
    .filter((t) => schema === undefined || t.schema === schema)
    .map((t) => t.name)
    .filter((n) => !n.startsWith('mcp_agent_migrations'))
    .sort();
}

reportSkippedPostgres();

describe.each(targets)('migrations on $name', (target) => {
  it('migrate to latest creates every table, and running again does nothing', async () => {
    const { db, schema } = await target.open();
    opened.push(db);
    const options = schema === undefined ? {} : { schema };
    expect(await migrateToLatest(db.db as Kysely<unknown>, options)).toEqual(
      Object.keys(migrations),
    );
    expect(await tableNames(db.db as Kysely<unknown>, schema)).toEqual([
      'audit_log',
      'auth_configs',
      'connected_accounts',
      'embedding_cache',
      'gateway_session_admissions',
      'gateway_session_tools',
      'gateway_sessions',
      'mcp_connections',
      'quota_counters',
      'quota_thread_servers',
      'rate_limits',
      'registry_changes',
      'secrets',
      'task_admissions',
      'task_events',
      'tasks',
      'thread_activations',
      'tool_catalog',
      'usage_models',
      'usage_tools',
      'user_quotas',
      'users',
    ]);
    expect(await migrateToLatest(db.db as Kysely<unknown>, options)).toEqual([]);
    // Long on a loaded machine: the migrator introspects every schema of a shared database.
  }, 60_000);

  it('a migration that fails midway leaves the database as it was', async () => {
    const { db, schema } = await target.open();
    opened.push(db);
    const failing = {
      ...migrations,
      '0002_half': {
        up: async (trx: Kysely<unknown>) => {
          await trx.schema.createTable('half_done').addColumn('id', 'text').execute();
          await sql`insert into no_such_table values (1)`.execute(trx);
        },
      },
    };
    const error = await migrateToLatest(db.db as Kysely<unknown>, {
      migrations: failing,
      ...(schema === undefined ? {} : { schema }),
    }).catch((e: unknown) => e);
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/rolled back/);
    // Not even the first, successful migration of the same run stays behind.
    expect(await tableNames(db.db as Kysely<unknown>, schema)).toEqual([]);
  }, 60_000);
});
