import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { preparedOnce } from './prepared-statements.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
const opened: BetterSqlite3.Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
});

function database() {
  const db = new Database(':memory:');
  opened.push(db);
  db.exec('create table t (n integer)');
  let prepared = 0;
  const counting = {
    get inTransaction() {
      return db.inTransaction;
    },
    close: () => db.close(),
    prepare: (sql: string) => {
      prepared += 1;
      return db.prepare(sql);
    },
  };
  return { db, counting, prepared: () => prepared };
}

describe('statements prepared once', () => {
  it('prepares each SQL text once and runs it again and again', () => {
    const { counting, prepared } = database();
    const kept = preparedOnce(counting);
    for (let i = 0; i < 50; i += 1) kept.prepare('insert into t (n) values (?)').run([i]);
    expect(prepared()).toBe(1);
    expect(kept.prepare('select count(*) as c from t').all([])).toEqual([{ c: 50 }]);
    expect(prepared()).toBe(2);
  });

  it('is bounded: past max the least recently used is dropped and prepared again when needed', () => {
    const { counting, prepared } = database();
    const kept = preparedOnce(counting, 2);
    const sqlOf = (k: number) => `select ${k} as k`;
    kept.prepare(sqlOf(1));
    kept.prepare(sqlOf(2));
    kept.prepare(sqlOf(1)); // 1 is now the most recent
    kept.prepare(sqlOf(3)); // drops 2
    expect(prepared()).toBe(3);
    kept.prepare(sqlOf(1));
    expect(prepared()).toBe(3);
    kept.prepare(sqlOf(2));
    expect(prepared()).toBe(4);
  });

  it('never hands out a statement that is still iterating: a second one is prepared', () => {
    const { counting } = database();
    const kept = preparedOnce(counting);
    kept.prepare('insert into t (n) values (?)').run([1]);
    kept.prepare('insert into t (n) values (?)').run([2]);
    const select = 'select n from t order by n';
    const iterating = kept.prepare(select).iterate([]);
    expect(iterating.next().value).toEqual({ n: 1 });
    // Without the check this would throw: "This statement is busy executing a query".
    expect(kept.prepare(select).all([])).toEqual([{ n: 1 }, { n: 2 }]);
    iterating.return?.();
  });
});
