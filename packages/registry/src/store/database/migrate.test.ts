import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { openDatabase } from './open-database.js';
import { assertMigrated, migrateToLatest } from './migrate.js';

// PostgreSQL's answer when a schema is dropped while kysely lists every schema's tables.
const dropped = Object.assign(new Error('schema "test_gone" does not exist'), { code: '3F000' });

// The database, its table listings failing `failures` times first, as a concurrent drop does.
function racing(db: Kysely<unknown>, failures: number): Kysely<unknown> {
  let left = failures;
  const real = db.introspection;
  const introspection: typeof real = {
    getSchemas: () => real.getSchemas(),
    getTables: async (options) => {
      if (left > 0) {
        left -= 1;
        throw dropped;
      }
      return real.getTables(options);
    },
  };
  Object.defineProperty(db, 'introspection', { get: () => introspection, configurable: true });
  return db;
}

describe('migrations while another process drops a schema', () => {
  it('a table listing that loses the race is tried again; the migrations run once', async () => {
    const database = await openDatabase({ url: ':memory:', migrate: false });
    try {
      const db = racing(database.db as Kysely<unknown>, 2);
      expect((await migrateToLatest(db)).length).toBeGreaterThan(0);
      await expect(assertMigrated(racing(database.db as Kysely<unknown>, 1))).resolves.toBe(
        undefined,
      );
      expect(await migrateToLatest(database.db as Kysely<unknown>)).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('a race that keeps failing is reported, not retried for ever', async () => {
    const database = await openDatabase({ url: ':memory:', migrate: false });
    try {
      await expect(migrateToLatest(racing(database.db as Kysely<unknown>, 10))).rejects.toThrow(
        /schema "test_gone" does not exist/,
      );
    } finally {
      await database.close();
    }
  });
});
