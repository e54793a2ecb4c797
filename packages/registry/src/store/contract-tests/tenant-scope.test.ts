import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { sql, type Kysely, type OperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext, userIdProblem } from '@mcp-agent/core';
import type { Database } from '../database/schema.js';
import { Registry } from '../../registry.js';
import { parseSecretKey } from '../vault/secret-key.js';
import { reportSkippedPostgres, tenantDialects } from './dialects.js';
import {
  checkTenantScope,
  TENANT_COLUMN,
  TenantScopeRecorder,
  type ScopedStatement,
} from './tenant-scope-check.js';
import { docs, MAINTENANCE, reads, seed, writes, type RowIds } from './tenant-scope-calls.js';

// Every row of a tenant, read around the repositories (no plugin, no tenant logic).
async function rowsOf(db: Kysely<Database>, userId: string): Promise<string> {
  const tables: Record<string, string[]> = {};
  for (const [table, column] of Object.entries(TENANT_COLUMN)) {
    const { rows } = await sql<
      Record<string, unknown>
    >`select * from ${sql.table(table)} where ${sql.ref(column)} = ${userId}`.execute(db);
    tables[table] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return JSON.stringify(tables);
}

async function outcome(call: () => Promise<unknown>, ids: RowIds): Promise<unknown> {
  try {
    const value = await call();
    return value instanceof Map ? { map: [...value] } : { value };
  } catch (error) {
    // The one id a caller passed may appear in the message; nothing else may differ.
    return {
      code: (error as { code?: unknown }).code,
      message: (error as Error).message.split(`"${ids.serverId}"`).join('"<id>"'),
    };
  }
}

const tenantId = fc
  .oneof(
    fc.string({ minLength: 1, maxLength: 24, unit: 'grapheme' }),
    fc.constantFrom('alice', 'ALICE', "o'brien", '%', '_', 'a%', 'user@example.com'),
  )
  .filter(isUserId);
// Tenant B: unrelated, or one character away from A (case, a LIKE wildcard, a prefix).
const tenants = fc
  .tuple(tenantId, tenantId, fc.nat(4))
  .map(([a, other, variant]) => {
    const b = [other, a.toUpperCase(), `${a}%`, `${a}_`, a.slice(0, -1)][variant] as string;
    return { a, b };
  })
  .filter(({ a, b }) => isUserId(b) && b !== a);
const rowIds = fc.record({
  serverId: fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,15}$/).filter((id) => id !== 'docs'),
  threadId: fc.string({ minLength: 1, maxLength: 20 }),
  field: fc.string({ minLength: 1, maxLength: 12 }),
});

function isUserId(value: string): boolean {
  return userIdProblem(value) === undefined;
}

reportSkippedPostgres();

describe.each(tenantDialects)('TEN-02 tenant scope of every query on $label', (dialect) => {
  const key = randomBytes(32).toString('base64');
  const recorder = new TenantScopeRecorder();
  let base: Registry;
  let registry: Registry;

  beforeAll(async () => {
    base = await dialect.open({ appServers: [docs], env: { MCP_AGENT_SECRET_KEY: key } });
    // The same database and key, every query of the repositories passing through the check.
    registry = new Registry({
      db: base.db.withPlugin(recorder),
      keyring: { current: parseSecretKey(key, 'test'), previous: [] },
      appServers: [docs],
    });
  });
  afterAll(async () => {
    await registry?.close();
    await base?.close();
  });

  it('TEN-02 the property calls every method of every repository', () => {
    const covered = new Set(
      [...Object.keys(reads), ...Object.keys(writes)].map((name) => name.replace(/\(.*\)$/, '')),
    );
    for (const name of [
      'users',
      'secrets',
      'authConfigs',
      'accounts',
      'connections',
      'catalog',
      'threads',
      'tasks',
      'gatewaySessions',
      'rateLimits',
      'audit',
    ] as const) {
      const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(registry[name])).filter(
        (method) => method !== 'constructor',
      );
      for (const method of methods.filter((m) => !MAINTENANCE.has(`${name}.${m}`)))
        expect(covered, `${name}.${method}`).toContain(`${name}.${method}`);
    }
  });

  it("TEN-02 as tenant B with tenant A's row ids, every method reads, changes and reveals nothing of A", async () => {
    await fc.assert(
      fc.asyncProperty(tenants, rowIds, fc.boolean(), async ({ a, b }, chosen, bHasSameIds) => {
        // A run of its own: fast-check repeats tenant ids (shrinking does), and B's writes of an
        // earlier run must not stand in for A's rows here.
        const run = randomBytes(4).toString('hex');
        const alice = createContext({ userId: `${run}:${a}` });
        const bob = createContext({ userId: `${run}:${b}` });
        const marker = `m${randomBytes(8).toString('hex')}`;
        recorder.statements.length = 0;
        const ids = await seed(registry, alice, chosen, marker);
        expectScopedTo(recorder.statements.splice(0), alice.userId);
        if (bHasSameIds) await seed(registry, bob, chosen, `b${randomBytes(8).toString('hex')}`);
        recorder.statements.length = 0;
        const before = await rowsOf(base.db, alice.userId);

        const fresh = {
          serverId: `fresh-${randomBytes(4).toString('hex')}`,
          threadId: `fresh-${randomBytes(4).toString('hex')}`,
          field: `fresh-${randomBytes(4).toString('hex')}`,
          connectionId: `fresh-${randomBytes(4).toString('hex')}`,
          accountId: `fresh-${randomBytes(4).toString('hex')}`,
          taskId: `fresh-${randomBytes(4).toString('hex')}`,
          sessionId: `fresh-${randomBytes(4).toString('hex')}`,
        };
        const seen: unknown[] = [];
        for (const [name, call] of Object.entries(reads)) {
          const got = await outcome(() => call(registry, bob, ids), ids);
          seen.push(got);
          // A's ids get exactly what ids that exist nowhere get.
          if (!bHasSameIds)
            expect(got, name).toEqual(await outcome(() => call(registry, bob, fresh), fresh));
        }
        for (const call of Object.values(writes))
          seen.push(await outcome(() => call(registry, bob, ids), ids));

        expect(await rowsOf(base.db, alice.userId)).toBe(before);
        const revealed = JSON.stringify(seen);
        for (const secret of [marker, ids.connectionId, ids.accountId, ids.taskId])
          expect(revealed).not.toContain(secret);
        expectScopedTo(recorder.statements.splice(0), bob.userId);
      }),
      { numRuns: 20 },
    );
  }, 120_000);

  it('TEN-02 the check catches a query without its tenant condition', () => {
    const db = base.db;
    const problems = (query: { toOperationNode(): OperationNode }) =>
      checkTenantScope(query.toOperationNode()).flatMap((s) => s.problems);
    expect(
      problems(db.selectFrom('mcp_connections').selectAll().where('server_id', '=', 'x')),
    ).toEqual(['SELECT on mcp_connections without user_id = ? in its WHERE']);
    // A tenant condition under OR scopes nothing.
    expect(
      problems(
        db
          .selectFrom('secrets')
          .selectAll()
          .where((eb) => eb.or([eb('user_id', '=', 'a'), eb('field', '=', 'x')])),
      ),
    ).toHaveLength(1);
    // A join whose second table is not scoped.
    expect(
      problems(
        db
          .selectFrom('tool_catalog')
          .innerJoin('mcp_connections', 'mcp_connections.id', 'tool_catalog.connection_id')
          .selectAll()
          .where('tool_catalog.user_id', '=', 'a'),
      ),
    ).toEqual(['SELECT on mcp_connections without user_id = ? in its WHERE']);
    expect(problems(db.updateTable('mcp_connections').set({ status: 'x' }))).toHaveLength(1);
    expect(problems(db.deleteFrom('users').where('created_at', '<', 'x'))).toHaveLength(1);
    // A subquery is a statement of its own.
    expect(
      problems(
        db
          .deleteFrom('secrets')
          .where('user_id', '=', 'a')
          .where('owner_id', 'in', db.selectFrom('mcp_connections').select('id')),
      ),
    ).toEqual(['SELECT on mcp_connections without user_id = ? in its WHERE']);
    expect(
      problems(
        db.insertInto('thread_activations').values({
          thread_id: 't',
          server_id: 'p',
          created_at: 'now',
        } as never),
      ),
    ).toEqual(['INSERT into thread_activations does not set user_id']);
    // And the repositories' own queries pass it.
    expect(
      problems(
        db
          .selectFrom('tool_catalog')
          .innerJoin('mcp_connections', 'mcp_connections.id', 'tool_catalog.connection_id')
          .selectAll()
          .where('tool_catalog.user_id', '=', 'a')
          .where('mcp_connections.user_id', '=', 'a'),
      ),
    ).toEqual([]);
  });
});

function expectScopedTo(statements: readonly ScopedStatement[], userId: string): void {
  expect(statements.length).toBeGreaterThan(0);
  for (const statement of statements) {
    expect(statement.problems, JSON.stringify(statement)).toEqual([]);
    for (const tenant of statement.tenants) expect(tenant, JSON.stringify(statement)).toBe(userId);
  }
}
