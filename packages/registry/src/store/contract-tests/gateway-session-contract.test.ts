import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { createManualClock } from '@mcp-agent/core/testing';
import type { GatewaySessionStore, Registry } from '../../index.js';
import { MemoryGatewaySessionStore } from '../../testing/index.js';
import { dialects, reportSkippedPostgres } from './dialects.js';

const clock = createManualClock(Date.parse('2030-01-01T00:00:00Z'));
const IDLE = 30 * 60_000;
const limits = { maxPerUser: 3, idleMs: IDLE };
const client = {
  capabilities: { roots: { listChanged: true } },
  clientInfo: { name: 'contract', version: '1.0' },
};
// Each test its own users: the stores outlive the tests of one dialect.
const user = (name: string) => createContext({ userId: `${name}-${randomUUID()}`, clock });

async function opened(store: GatewaySessionStore, ctx = user('alice')) {
  const id = randomUUID();
  expect(await store.admit(ctx, id, limits)).toEqual({ admitted: true });
  await store.initialized(ctx, id, { protocolVersion: '2025-11-25', client });
  return { id, ctx };
}

reportSkippedPostgres();

const stores = [
  ...dialects.map((dialect) => ({ name: dialect.name, open: dialect.open })),
  { name: 'memory', open: undefined },
];

describe.each(stores)('gateway sessions on $name', ({ name, open }) => {
  let registry: Registry | undefined;
  let store: GatewaySessionStore;
  beforeAll(async () => {
    registry = await open?.();
    store = registry?.gatewaySessions ?? new MemoryGatewaySessionStore();
  });
  afterAll(async () => {
    await registry?.close();
  });

  it(`a session is found by its user with what it described and its scope; another user gets nothing of it (${name})`, async () => {
    const { id, ctx } = await opened(store);
    await store.addDescribed(ctx, id, ['github.list_issues', 'notes.search']);
    // Added twice (two processes describing the same tool): kept once.
    await store.addDescribed(ctx, id, ['notes.search', 'files.read']);
    await store.setSearchScope(ctx, id, 'Searches the tools of github and notes.');
    const found = await store.find(ctx, id, IDLE);
    expect(found).toMatchObject({
      userId: ctx.userId,
      protocolVersion: '2025-11-25',
      client,
      searchScope: 'Searches the tools of github and notes.',
      createdAt: clock.now(),
      lastUsedAt: clock.now(),
    });
    expect([...(found?.described ?? [])].sort()).toEqual([
      'files.read',
      'github.list_issues',
      'notes.search',
    ]);

    const bob = user('bob');
    expect(await store.find(bob, id, IDLE)).toBeUndefined();
    expect(await store.described(bob, id)).toEqual([]);
    expect(await store.heldByAnother(bob, id)).toBe(true);
    expect(await store.heldByAnother(ctx, id)).toBe(false);
    expect(await store.heldByAnother(bob, randomUUID())).toBe(false);
    // Bob's writes under Alice's id change nothing of hers.
    await store.addDescribed(bob, id, ['evil.tool']);
    await store.setSearchScope(bob, id, 'evil');
    await store.touch(bob, id, clock.now() + 1_000);
    expect(await store.remove(bob, id)).toBe(false);
    expect(await store.find(ctx, id, IDLE)).toMatchObject({
      searchScope: 'Searches the tools of github and notes.',
      lastUsedAt: clock.now(),
    });
    expect(await store.described(ctx, id)).not.toContain('evil.tool');
  });

  it(`a session is found only once initialized, and only while used within the idle time (${name})`, async () => {
    const ctx = user('carol');
    const id = randomUUID();
    await store.admit(ctx, id, limits);
    expect(await store.find(ctx, id, IDLE)).toBeUndefined();
    await store.initialized(ctx, id, { protocolVersion: '2025-06-18', client });
    expect(await store.find(ctx, id, IDLE)).toMatchObject({ protocolVersion: '2025-06-18' });

    clock.advance(IDLE - 1_000);
    await store.touch(ctx, id, clock.now());
    // An older use written late changes nothing.
    await store.touch(ctx, id, clock.now() - 5_000);
    clock.advance(IDLE - 1_000);
    expect(await store.find(ctx, id, IDLE)).toMatchObject({
      lastUsedAt: clock.now() - IDLE + 1_000,
    });
    clock.advance(1_000);
    expect(await store.find(ctx, id, IDLE)).toBeUndefined();
  });

  it(`the per-user cap counts live sessions, an expired or removed one frees its place (${name})`, async () => {
    const ctx = user('dave');
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of ids) expect(await store.admit(ctx, id, limits)).toEqual({ admitted: true });
    expect(await store.admit(ctx, randomUUID(), limits)).toEqual({ admitted: false, open: 3 });
    // Another user is not counted with dave.
    expect(await store.admit(user('erin'), randomUUID(), limits)).toEqual({ admitted: true });
    expect(await store.remove(ctx, ids[0] as string)).toBe(true);
    expect(await store.remove(ctx, ids[0] as string)).toBe(false);
    expect(await store.admit(ctx, randomUUID(), limits)).toEqual({ admitted: true });
    // Idle past the expiry, the others stop counting.
    clock.advance(IDLE);
    await store.touch(ctx, ids[1] as string, clock.now());
    expect(await store.admit(ctx, randomUUID(), limits)).toEqual({ admitted: true });
    expect(await store.admit(ctx, randomUUID(), limits)).toEqual({ admitted: true });
    expect(await store.admit(ctx, randomUUID(), limits)).toEqual({ admitted: false, open: 3 });
  });

  it(`a burst of admissions of one user passes the cap by none (${name})`, async () => {
    const ctx = user('frank');
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => store.admit(ctx, randomUUID(), limits)),
    );
    expect(outcomes.filter((o) => o.admitted)).toHaveLength(3);
  });

  it(`sweeping deletes the sessions idle past the expiry with their tools, and existing() says which are left (${name})`, async () => {
    const old = await opened(store, user('gina'));
    await store.addDescribed(old.ctx, old.id, ['a.b']);
    clock.advance(IDLE);
    const fresh = await opened(store, user('gina'));
    const unknown = randomUUID();
    expect(await store.existing([old.id, fresh.id, unknown])).toEqual(new Set([old.id, fresh.id]));
    let swept = 0;
    for (
      let n = await store.sweep(clock.now() - IDLE + 1);
      n > 0;
      n = await store.sweep(clock.now() - IDLE + 1)
    )
      swept += n;
    expect(swept).toBeGreaterThanOrEqual(1);
    expect(await store.existing([old.id, fresh.id])).toEqual(new Set([fresh.id]));
    expect(await store.described(old.ctx, old.id)).toEqual([]);
    expect(await store.find(fresh.ctx, fresh.id, IDLE)).toBeDefined();
  });

  it.runIf(open !== undefined)(
    `the session id is not stored, only its digest (${name})`,
    async () => {
      const { id } = await opened(store, user('hana'));
      const rows = await (registry as Registry).db
        .selectFrom('gateway_sessions')
        .select(['id'])
        .execute();
      expect(rows.map((row) => row.id)).not.toContain(id);
      expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.id))).toBe(true);
    },
  );
});
