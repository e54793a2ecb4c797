import {
  CompiledQuery,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type SqliteDatabase,
} from 'kysely';
import { TimeoutError, backoffDelay, sleep } from '@mcp-agent/core';

/**
 * How long SQLite itself waits for a lock, blocking the event loop (better-sqlite3 is
 * synchronous): short, so a lock held by another process costs the loop at most this per try.
 */
export const SQLITE_BUSY_TIMEOUT_MS = 5;

/** How long a statement waits in total, asynchronously, for another process's lock. */
export const DEFAULT_SQLITE_LOCK_TIMEOUT_MS = 10_000;

/** The subset of better-sqlite3's `Database` the lock wait needs. */
export interface LockAwareSqliteDatabase extends SqliteDatabase {
  readonly inTransaction: boolean;
}

/**
 * kysely's SQLite driver, made to wait for another process's lock without blocking the event
 * loop: a statement that finds the database locked (SQLITE_BUSY after the short busy timeout)
 * is retried after a jittered, growing pause, for `lockTimeoutMs` in all, then fails with a
 * `TimeoutError` saying what holds it. Transactions start with `BEGIN IMMEDIATE`, so they take
 * the write lock up front and retry there, never halfway through.
 */
export class LockWaitingSqliteDriver implements Driver {
  readonly #database: LockAwareSqliteDatabase;
  readonly #inner: SqliteDriver;
  readonly #lockTimeoutMs: number;
  #connection: DatabaseConnection | undefined;

  constructor(database: LockAwareSqliteDatabase, lockTimeoutMs: number) {
    this.#database = database;
    this.#inner = new SqliteDriver({ database });
    this.#lockTimeoutMs = lockTimeoutMs;
  }

  async init(): Promise<void> {
    await this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await this.#inner.acquireConnection();
    this.#connection ??= {
      executeQuery: <R>(query: CompiledQuery) =>
        this.#waitingForLocks(() => inner.executeQuery<R>(query), query.sql),
      streamQuery: <R>(query: CompiledQuery, chunkSize: number) =>
        inner.streamQuery<R>(query, chunkSize),
    };
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#inner.commitTransaction(connection);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#inner.rollbackTransaction(connection);
  }

  async savepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await this.#inner.savepoint(connection, name, compile);
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await this.#inner.rollbackToSavepoint(connection, name, compile);
  }

  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await this.#inner.releaseSavepoint(connection, name, compile);
  }

  async releaseConnection(): Promise<void> {
    await this.#inner.releaseConnection();
  }

  async destroy(): Promise<void> {
    await this.#inner.destroy();
  }

  async #waitingForLocks<R>(run: () => Promise<QueryResult<R>>, sql: string) {
    const started = performance.now();
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await run();
      } catch (error) {
        if (!isBusy(error)) throw error;
        const waited = performance.now() - started;
        // SQLite's rule: inside a transaction only COMMIT may be retried; anything else must
        // roll back. Outside one (BEGIN IMMEDIATE included) a busy statement did nothing.
        const retriable = !this.#database.inTransaction || /^\s*commit\b/i.test(sql);
        if (!retriable || waited >= this.#lockTimeoutMs) throw locked(waited, error);
        const pause = 10 + backoffDelay(attempt, { baseMs: 20, capMs: 200 });
        await sleep(Math.min(pause, this.#lockTimeoutMs - waited));
      }
    }
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

function locked(waitedMs: number, cause: unknown): TimeoutError {
  return new TimeoutError(
    `The registry's SQLite database is locked by another process (waited ${(waitedMs / 1000).toFixed(1)} s): another mcp-agent process (a CLI command, a second server) or a tool is holding a write transaction on the same file. Let it finish or stop it, then retry; to run several processes on one registry, use PostgreSQL (MCP_AGENT_DATABASE_URL).`,
    { cause, details: { reason: 'database_locked', waitedMs: Math.round(waitedMs) } },
  );
}
