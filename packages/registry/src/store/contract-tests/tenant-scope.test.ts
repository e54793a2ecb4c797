import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { sql, type Kysely, type OperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createContext,
  normalizeUserId,
  type AgentContext,
  type ServerConfig,
} from '@mcp-agent/core';
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
import { repositoriesOf } from '../tenant-store.js';

const docs: ServerConfig = {
  id: 'docs',
  transport: 'streamable-http',
  url: 'https://docs.example/mcp',
  headers: {},
  enabled: true,
};

/** The ids of one tenant's rows that the other tenant is handed. */
interface RowIds {
  readonly serverId: string;
  readonly threadId: string;
  readonly field: string;
  readonly connectionId: string;
  readonly accountId: string;
  readonly taskId: string;
}

type Call = (registry: Registry, ctx: AgentContext, ids: RowIds) => Promise<unknown>;

// Every repository method, called with the ids it is handed; a missing one fails coverage below.
const reads: Record<string, Call> = {
  'users.get': (r, ctx) => repositoriesOf(r).users.get(ctx),
  'connections.find': (r, ctx, ids) => repositoriesOf(r).connections.find(ctx, ids.serverId),
  'connections.get': (r, ctx, ids) => repositoriesOf(r).connections.get(ctx, ids.serverId),
  'connections.list': (r, ctx) => repositoriesOf(r).connections.list(ctx),
  'connections.resolveUserServer': (r, ctx, ids) =>
    repositoriesOf(r).connections.resolveUserServer(ctx, ids.serverId),
  'catalog.list': (r, ctx, ids) => repositoriesOf(r).catalog.list(ctx, ids.serverId),
  'catalog.listMany': async (r, ctx, ids) => [
    ...(await repositoriesOf(r).catalog.listMany(ctx, [ids.serverId, 'docs'])).values(),
  ],
  'catalog.toolNames': (r, ctx) => repositoriesOf(r).catalog.toolNames(ctx),
  'threads.list': (r, ctx, ids) => repositoriesOf(r).threads.list(ctx, ids.threadId),
  'authConfigs.find': (r, ctx, ids) => repositoriesOf(r).authConfigs.find(ctx, ids.serverId),
  'authConfigs.oauthAuthorizations': (r, ctx) =>
    repositoriesOf(r).authConfigs.oauthAuthorizations(ctx),
  'accounts.find': (r, ctx, ids) => repositoriesOf(r).accounts.find(ctx, ids.serverId),
  'accounts.getSecret': (r, ctx, ids) =>
    repositoriesOf(r).accounts.getSecret(ctx, ids.serverId, ids.field),
  'secrets.get': (r, ctx, ids) =>
    repositoriesOf(r).secrets.get(ctx, { kind: 'connection', id: ids.connectionId }, ids.field),
  'secrets.list': (r, ctx, ids) =>
    repositoriesOf(r).secrets.list(ctx, { kind: 'account', id: ids.accountId }),
  // The registry's own tenant reads, over the repositories.
  'registry.resolveServer': (r, ctx, ids) => r.resolveServer(ctx, ids.serverId),
  'registry.availability': async (r, ctx) => (await r.availability(ctx)).servers,
  'registry.isAuthorized': (r, ctx, ids) => r.isAuthorized(ctx, ids.serverId),
  'registry.tiers': (r, ctx, ids) => r.tiers(ctx, { threadId: ids.threadId }),
  'tasks.get': (r, ctx, ids) => r.tasks.get(ctx, ids.taskId),
  'tasks.list': (r, ctx) => r.tasks.list(ctx),
  'tasks.events': (r, ctx, ids) => r.tasks.events(ctx, ids.taskId),
  'audit.list': (r, ctx) => repositoriesOf(r).audit.list(ctx),
};
const writes: Record<string, Call> = {
  'connections.remove': (r, ctx, ids) => repositoriesOf(r).connections.remove(ctx, ids.serverId),
  'connections.setEnabled': (r, ctx, ids) =>
    repositoriesOf(r).connections.setEnabled(ctx, ids.serverId, false),
  'catalog.replace': (r, ctx, ids) =>
    repositoriesOf(r).catalog.replace(ctx, ids.serverId, [{ name: 'b_tool' }]),
  'connections.recordState': (r, ctx, ids) =>
    repositoriesOf(r).connections.recordState(ctx, ids.serverId, {
      status: 'failed',
      lastError: 'b',
    }),
  'accounts.disconnect': (r, ctx, ids) => repositoriesOf(r).accounts.disconnect(ctx, ids.serverId),
  'secrets.remove': (r, ctx, ids) =>
    repositoriesOf(r).secrets.remove(ctx, { kind: 'account', id: ids.accountId }),
  'threads.deactivate': (r, ctx, ids) => repositoriesOf(r).threads.deactivate(ctx, ids.threadId),
  // Writes that create the caller's own rows under the same ids.
  'users.upsert': (r, ctx) => repositoriesOf(r).users.upsert(ctx),
  'connections.upsertUserServer': (r, ctx, ids) =>
    repositoriesOf(r).connections.upsertUserServer(ctx, {
      id: ids.serverId,
      transport: 'sse',
      url: 'https://b.example/sse',
    }),
  'connections.recordState(app)': (r, ctx) =>
    repositoriesOf(r).connections.recordState(ctx, 'docs', { status: 'ready' }, docs),
  'authConfigs.upsert': (r, ctx, ids) =>
    repositoriesOf(r).authConfigs.upsert(ctx, { serverId: ids.serverId, kind: 'none' }),
  'accounts.upsert': (r, ctx, ids) =>
    repositoriesOf(r).accounts.upsert(ctx, { serverId: ids.serverId, status: 'disconnected' }),
  'accounts.putSecret': (r, ctx, ids) =>
    repositoriesOf(r).accounts.putSecret(ctx, ids.serverId, ids.field, 'b-value'),
  'secrets.put': (r, ctx, ids) =>
    repositoriesOf(r).secrets.put(
      ctx,
      { kind: 'connection', id: ids.connectionId },
      ids.field,
      'b-value',
    ),
  'threads.activate': (r, ctx, ids) =>
    repositoriesOf(r).threads.activate(ctx, ids.threadId, [ids.serverId]),
  'tasks.appendEvents': (r, ctx, ids) =>
    r.tasks.appendEvents(ctx, ids.taskId, [
      { seq: 1, event: { type: 'answer', requestId: 'b', answer: 'b' } },
    ]),
  'tasks.finish': (r, ctx, ids) =>
    r.tasks.finish(ctx, ids.taskId, 'proc_seed', {
      status: 'completed',
      answer: 'b',
      steps: [],
      toolsUsed: [],
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      durationMs: 0,
      requestId: 'b',
    }),
  'tasks.requestCancel': (r, ctx, ids) => r.tasks.requestCancel(ctx, ids.taskId),
  // Writes that create the caller's own rows.
  'tasks.admit': (r, ctx) =>
    r.tasks.admit(ctx, {
      task: 'b',
      owner: 'proc_b',
      leaseMs: 60_000,
      maxRunning: 100,
      keepFinished: 100,
    }),
  'rateLimits.take': (r, ctx, ids) =>
    repositoriesOf(r).rateLimits.take(ctx, ids.serverId, { ratePerSecond: 1, burst: 1 }),
  'audit.record': (r, ctx) => repositoriesOf(r).audit.record(ctx, { action: 'server.removed' }),
};

// Cross-tenant by design (housekeeping, the operator's audit reading): their suites test them.
const MAINTENANCE = new Set([
  'rateLimits.prune',
  'audit.forOperator',
  'audit.prune',
  // A process's leases and the operator's views of tasks: the task suite tests them.
  'tasks.renewLeases',
  'tasks.cancelRequests',
  'tasks.failLost',
  'tasks.pruneFinished',
  'tasks.recentForOperator',
  'tasks.findForOperator',
  'tasks.runningCount',
]);

// Tenant A's rows, every value carrying `marker` so that any leak of them can be found.
async function seed(
  registry: Registry,
  ctx: AgentContext,
  ids: Pick<RowIds, 'serverId' | 'threadId' | 'field'>,
  marker: string,
): Promise<RowIds> {
  const connection = await repositoriesOf(registry).connections.upsertUserServer(ctx, {
    id: ids.serverId,
    transport: 'streamable-http',
    url: `https://${marker}.example/mcp`,
    headers: { Authorization: `Bearer ${marker}-token` },
  });
  await repositoriesOf(registry).catalog.replace(ctx, ids.serverId, [{ name: `${marker}_tool` }]);
  await repositoriesOf(registry).connections.recordState(ctx, ids.serverId, {
    status: 'ready',
    lastError: marker,
  });
  await repositoriesOf(registry).connections.recordState(
    ctx,
    'docs',
    { status: 'failed', lastError: marker },
    docs,
  );
  await repositoriesOf(registry).authConfigs.upsert(ctx, {
    serverId: ids.serverId,
    kind: 'oauth',
    settings: { marker },
  });
  const account = await repositoriesOf(registry).accounts.upsert(ctx, {
    serverId: ids.serverId,
    status: 'active',
    providerUid: marker,
  });
  await repositoriesOf(registry).accounts.putSecret(
    ctx,
    ids.serverId,
    ids.field,
    `${marker}-oauth`,
  );
  await repositoriesOf(registry).secrets.put(
    ctx,
    { kind: 'connection', id: connection.id },
    ids.field,
    marker,
  );
  await repositoriesOf(registry).threads.activate(ctx, ids.threadId, [ids.serverId, 'docs']);
  const admission = await registry.tasks.admit(ctx, {
    task: `${marker} task`,
    owner: 'proc_seed',
    leaseMs: 60_000,
    maxRunning: 100,
    keepFinished: 100,
  });
  if (!admission.admitted) throw new Error('the seed task was not admitted');
  const taskId = admission.record.id;
  await registry.tasks.appendEvents(ctx, taskId, [
    { seq: 0, event: { type: 'answer', requestId: marker, answer: marker } },
  ]);
  await repositoriesOf(registry).rateLimits.take(ctx, ids.serverId, {
    ratePerSecond: 1,
    burst: 5,
  });
  await repositoriesOf(registry).audit.record(ctx, { action: 'token.added', detail: { marker } });
  return { ...ids, connectionId: connection.id, accountId: account.id, taskId };
}

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
    return { a: normalizeUserId(a), b };
  })
  .filter(({ a, b }) => isUserId(b) && normalizeUserId(b) !== a)
  .map(({ a, b }) => ({ a, b: normalizeUserId(b) }));
const rowIds = fc.record({
  serverId: fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,15}$/).filter((id) => id !== 'docs'),
  threadId: fc.string({ minLength: 1, maxLength: 20 }),
  field: fc.string({ minLength: 1, maxLength: 12 }),
});

function isUserId(value: string): boolean {
  try {
    normalizeUserId(value);
    return true;
  } catch {
    return false;
  }
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
