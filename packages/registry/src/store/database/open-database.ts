import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import { ConfigError } from '@mcp-agent/core';
import { migrateToLatest } from './migrate.js';
import type { Database } from './schema.js';
import { DEFAULT_SQLITE_LOCK_TIMEOUT_MS, SQLITE_BUSY_TIMEOUT_MS } from './sqlite-lock-wait.js';
import { TransactionalSqliteDialect } from './transactional-sqlite-dialect.js';

/** Which engine a database runs on. */
export type DatabaseDialect = 'sqlite' | 'postgres';

/** An open, migrated database. */
export interface OpenDatabase {
  /** The Kysely handle every repository queries through; closed by `close()`. */
  readonly db: Kysely<Database>;
  /** The engine, chosen by the URL. */
  readonly dialect: DatabaseDialect;
  /** Where it is: the SQLite file (or `:memory:`), or the PostgreSQL URL without credentials. */
  readonly location: string;
  /** Closes the connection (SQLite) or the pool's connections (PostgreSQL). */
  close(): Promise<void>;
}

/** Options of {@link openDatabase}; each defaults to its environment variable. */
export interface OpenDatabaseOptions {
  /** `postgres://…` or `postgresql://…` for PostgreSQL, `:memory:` or a file path for SQLite. */
  readonly url?: string;
  /** Where the SQLite file lives when `url` is not given; default `~/.mcp-agent`. */
  readonly home?: string;
  /**
   * PostgreSQL only: the schema to use (created if missing); default `MCP_AGENT_DATABASE_SCHEMA`,
   * else `public`.
   */
  readonly schema?: string;
  /** Run migrations on open; default true. */
  readonly migrate?: boolean;
  /**
   * SQLite only: how long a statement waits, in total and without blocking the event loop, for
   * another process's lock before failing with `TIMEOUT`; default 10 000 ms.
   */
  readonly lockTimeoutMs?: number;
}

/** The home folder: `MCP_AGENT_HOME`, or `~/.mcp-agent`. */
export function resolveHome(home = process.env.MCP_AGENT_HOME): string {
  return home !== undefined && home !== '' ? home : join(homedir(), '.mcp-agent');
}

/** The database URL from `MCP_AGENT_DATABASE_URL`, or `undefined` for the SQLite default. */
export function databaseUrlFromEnv(): string | undefined {
  const url = process.env.MCP_AGENT_DATABASE_URL;
  return url === undefined || url === '' ? undefined : url;
}

/**
 * The PostgreSQL schema from `MCP_AGENT_DATABASE_SCHEMA`, or `undefined` for the connection's
 * default (`public`): several deployments, or test runs, can share one database.
 */
export function databaseSchemaFromEnv(): string | undefined {
  const schema = process.env.MCP_AGENT_DATABASE_SCHEMA;
  return schema === undefined || schema === '' ? undefined : schema;
}

/** True when `url` selects PostgreSQL. */
export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}

/**
 * Opens and migrates the database: PostgreSQL when the URL is `postgres://…`, otherwise SQLite
 * (WAL, foreign keys on) at the URL's path or `<home>/mcp-agent.db`. PostgreSQL gets a pool of
 * at most 10 connections. Most callers want {@link openRegistry}, which also loads the key.
 *
 * @throws ConfigError (`CONFIG_INVALID`) when PostgreSQL cannot be reached (the message names
 *   the URL without credentials), the schema name is invalid, or a migration failed; the
 *   database is closed again before the error is thrown.
 *
 * @example
 * ```ts
 * const database = await openDatabase({ url: ':memory:' });
 * try {
 *   const users = await database.db.selectFrom('users').selectAll().execute();
 * } finally {
 *   await database.close();
 * }
 * ```
 */
export async function openDatabase(given: OpenDatabaseOptions = {}): Promise<OpenDatabase> {
  const url = given.url ?? databaseUrlFromEnv();
  const schema = given.schema ?? databaseSchemaFromEnv();
  const options = { ...given, ...(schema === undefined ? {} : { schema }) };
  const opened = isPostgresUrl(url)
    ? await openPostgres(url, options.schema)
    : openSqlite(url, options);
  if (options.migrate !== false) {
    try {
      await migrateToLatest(opened.db as Kysely<unknown>, {
        ...(options.schema === undefined || opened.dialect !== 'postgres'
          ? {}
          : { schema: options.schema }),
      });
    } catch (error) {
      await opened.close();
      throw error;
    }
  }
  return opened;
}

function openSqlite(url: string | undefined, options: OpenDatabaseOptions): OpenDatabase {
  let file = url;
  if (file === undefined) {
    const home = resolveHome(options.home);
    mkdirSync(home, { recursive: true, mode: 0o700 });
    file = join(home, 'mcp-agent.db');
  } else if (file.startsWith('sqlite:')) {
    file = file.replace(/^sqlite:(\/\/)?/, '');
  }
  // Loaded here, not at import, so PostgreSQL deployments never load the native module.
  const BetterSqlite = loadBetterSqlite();
  // A short busy timeout: better-sqlite3 waits for a lock synchronously, stalling the event
  // loop; longer waits happen between retries (sqlite-lock-wait.ts).
  const connection = new BetterSqlite(file, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  if (file !== ':memory:') connection.pragma('journal_mode = WAL');
  connection.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({
    dialect: new TransactionalSqliteDialect({
      database: connection,
      lockTimeoutMs: options.lockTimeoutMs ?? DEFAULT_SQLITE_LOCK_TIMEOUT_MS,
    }),
  });
  return { db, dialect: 'sqlite', location: file, close: () => db.destroy() };
}

async function openPostgres(url: string, schema: string | undefined): Promise<OpenDatabase> {
  const { default: pg } = await import('pg');
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new ConfigError(
      `Invalid PostgreSQL schema name "${schema}": use lowercase letters, digits and "_".`,
    );
  }
  if (schema !== undefined) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query(`create schema if not exists ${schema}`);
    } catch (error) {
      throw unreachable(url, error);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    await pool.query('select 1');
  } catch (error) {
    await db.destroy();
    throw unreachable(url, error);
  }
  return { db, dialect: 'postgres', location: withoutCredentials(url), close: () => db.destroy() };
}

function unreachable(url: string, error: unknown): ConfigError {
  return new ConfigError(
    `Cannot reach PostgreSQL at ${withoutCredentials(url)}: ${(error as Error).message}. Check MCP_AGENT_DATABASE_URL and that the server is running.`,
    { cause: error },
  );
}

/** The URL with any user and password removed, for messages and logs. */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

function loadBetterSqlite(): typeof BetterSqlite3 {
  const require = createRequire(import.meta.url);
  return require('better-sqlite3') as typeof BetterSqlite3;
}
