import { SqliteAdapter, SqliteDialect, type DialectAdapter } from 'kysely';

// kysely's SqliteAdapter reports no transactional DDL, so its migrator would run SQLite
// migrations outside a transaction and a failure midway would leave half a schema. SQLite
// does roll DDL back; saying so makes the migrator wrap each run in one transaction.
class TransactionalSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** kysely's SQLite dialect, with migrations run inside a transaction. */
export class TransactionalSqliteDialect extends SqliteDialect {
  override createAdapter(): DialectAdapter {
    return new TransactionalSqliteAdapter();
  }
}
