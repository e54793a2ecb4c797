import type { Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import { ConfigError } from '@mcp-agent/core';
import { migrations as defaultMigrations } from './migrations.js';

/**
 * Brings the schema to the latest version. Every pending migration runs in one transaction
 * (both dialects support transactional DDL), so a failure leaves the database as it was.
 */
export async function migrateToLatest(
  db: Kysely<unknown>,
  options: { migrations?: Readonly<Record<string, Migration>>; schema?: string } = {},
): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => ({ ...(options.migrations ?? defaultMigrations) }) },
    migrationTableName: 'mcp_agent_migrations',
    migrationLockTableName: 'mcp_agent_migrations_lock',
    // kysely looks for its own tables across every schema unless told which one is ours.
    ...(options.schema === undefined ? {} : { migrationTableSchema: options.schema }),
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new ConfigError(
      `Database migration "${failed}" failed and was rolled back: ${(error as Error).message ?? String(error)}. The database is unchanged; fix the cause and start again.`,
      { cause: error, details: { migration: failed } },
    );
  }
  return results.filter((result) => result.status === 'Success').map((r) => r.migrationName);
}
