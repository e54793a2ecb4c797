import type { SqliteStatement } from 'kysely';
import type { LockAwareSqliteDatabase } from './sqlite-lock-wait.js';

/** How many distinct statements one SQLite connection keeps prepared. */
export const PREPARED_STATEMENTS_KEPT = 256;

/**
 * The database with each statement prepared once: kysely prepares its SQL on every execution,
 * which on the per-call path (usage, quotas, rate limits) costs more than running it. Kept by
 * SQL text, the least recently used dropped past `max`; a statement still iterating (a stream)
 * is never handed out twice; SQLite re-prepares a kept statement itself after a schema change.
 */
export function preparedOnce(
  database: LockAwareSqliteDatabase,
  max = PREPARED_STATEMENTS_KEPT,
): LockAwareSqliteDatabase {
  const kept = new Map<string, SqliteStatement>();
  return {
    get inTransaction() {
      return database.inTransaction;
    },
    close() {
      kept.clear();
      database.close();
    },
    prepare(sql: string): SqliteStatement {
      const statement = kept.get(sql);
      if (statement !== undefined && (statement as { busy?: boolean }).busy !== true) {
        // Most recently used last, so the first is the one to drop.
        kept.delete(sql);
        kept.set(sql, statement);
        return statement;
      }
      const prepared = database.prepare(sql);
      if (statement === undefined) {
        kept.set(sql, prepared);
        if (kept.size > max) kept.delete(kept.keys().next().value as string);
      }
      return prepared;
    },
  };
}
