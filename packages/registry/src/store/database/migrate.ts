import type { Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import { ConfigError } from '@mcp-agent/core';
import { migrations as defaultMigrations } from './migrations.js';

/**
 * Brings the schema to the latest version. Every pending migration runs in one transaction
 * (both dialects support transactional DDL), so a failure leaves the database as it was.
 * Kysely's migration lock serialises processes starting at once: one migrates, the others then
 * find nothing to run. Returns the names of the migrations it ran (empty when already current).
 *
 * @throws ConfigError (`CONFIG_INVALID`) naming the migration that failed; nothing was changed.
 *
 * @example
 * ```ts
 * // A deploy step that migrates once, before processes start with `migrate: false`.
 * const database = await openDatabase({ migrate: false }); // MCP_AGENT_DATABASE_URL
 * const ran = await migrateToLatest(database.db as Kysely<unknown>);
 * console.log(ran.length === 0 ? 'schema current' : `migrated: ${ran.join(', ')}`);
 * ```
 */
export async function migrateToLatest(
  db: Kysely<unknown>,
  options: MigrationOptions = {},
): Promise<string[]> {
  let outcome = await migrator(db, options).migrateToLatest();
  for (let retry = 1; retry < INTROSPECTION_ATTEMPTS && lostRace(outcome); retry += 1)
    outcome = await migrator(db, options).migrateToLatest();
  const { error, results = [] } = outcome;
  if (error !== undefined) {
    const failed = results.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new ConfigError(
      `Database migration "${failed}" failed and was rolled back: ${(error as Error).message ?? String(error)}. The database is unchanged; fix the cause and start again.`,
      { cause: error, details: { migration: failed } },
    );
  }
  return results.filter((result) => result.status === 'Success').map((r) => r.migrationName);
}

/** Which migrations and which schema (PostgreSQL) a migration call is about. */
export interface MigrationOptions {
  /** The migrations by name, applied in name order; default this package's {@link migrations}. */
  readonly migrations?: Readonly<Record<string, Migration>>;
  /** PostgreSQL only: the schema whose tables (and migration bookkeeping) are meant. */
  readonly schema?: string;
}

/**
 * Refuses a database whose schema is behind this version's migrations, saying what to run: for
 * processes started with `migrate: false`, after the deployment migrated once.
 *
 * @throws ConfigError (`CONFIG_INVALID`) listing the migrations that have not run.
 */
export async function assertMigrated(
  db: Kysely<unknown>,
  options: MigrationOptions = {},
): Promise<void> {
  const listed = async (
    attempt: number,
  ): Promise<readonly { name: string; executedAt?: Date }[]> => {
    try {
      return await migrator(db, options).getMigrations();
    } catch (thrown) {
      if (attempt >= INTROSPECTION_ATTEMPTS || !droppedMeanwhile(thrown)) throw thrown;
      return listed(attempt + 1);
    }
  };
  const pending = (await listed(1))
    .filter((migration) => migration.executedAt === undefined)
    .map((migration) => migration.name);
  if (pending.length > 0)
    throw new ConfigError(
      `The database schema is behind this version: migration${pending.length === 1 ? '' : 's'} ${pending.join(', ')} have not run. Run the migrations once (mcp-agent-server --migrate-only, or openRegistry with migrate: true), then start the processes.`,
      { details: { pending } },
    );
}

// kysely's migrator lists every table of every schema to find its own. A schema another process
// drops during that listing fails it (PostgreSQL 3F000, 42P01) before anything is written, so the
// listing is simply tried again.
const INTROSPECTION_ATTEMPTS = 3;

function droppedMeanwhile(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '3F000' || code === '42P01';
}

function lostRace(outcome: { error?: unknown; results?: readonly { status: string }[] }): boolean {
  return (
    outcome.error !== undefined &&
    droppedMeanwhile(outcome.error) &&
    !(outcome.results ?? []).some((result) => result.status !== 'NotExecuted')
  );
}

function migrator(db: Kysely<unknown>, options: MigrationOptions): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => ({ ...(options.migrations ?? defaultMigrations) }) },
    migrationTableName: 'mcp_agent_migrations',
    migrationLockTableName: 'mcp_agent_migrations_lock',
    // kysely looks for its own tables across every schema unless told which one is ours.
    ...(options.schema === undefined ? {} : { migrationTableSchema: options.schema }),
  });
}
