import { SqliteAdapter, SqliteDialect, type DialectAdapter, type Driver } from 'kysely';
import { preparedOnce } from './prepared-statements.js';
import { LockWaitingSqliteDriver, type LockAwareSqliteDatabase } from './sqlite-lock-wait.js';

// kysely's SqliteAdapter reports no transactional DDL, so its migrator would run SQLite
// migrations outside a transaction and a failure midway would leave half a schema. SQLite
// does roll DDL back; saying so makes the migrator wrap each run in one transaction.
class TransactionalSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/**
 * kysely's SQLite dialect, with migrations run inside a transaction, each statement prepared
 * once ({@link preparedOnce}) and statements that wait for another process's lock without blocking the event loop ({@link LockWaitingSqliteDriver}).
 */
export class TransactionalSqliteDialect extends SqliteDialect {
  readonly #database: LockAwareSqliteDatabase;
  readonly #lockTimeoutMs: number;

  constructor(options: { database: LockAwareSqliteDatabase; lockTimeoutMs: number }) {
    const database = preparedOnce(options.database);
    super({ database });
    this.#database = database;
    this.#lockTimeoutMs = options.lockTimeoutMs;
  }

  override createDriver(): Driver {
    return new LockWaitingSqliteDriver(this.#database, this.#lockTimeoutMs);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalSqliteAdapter();
  }
}
