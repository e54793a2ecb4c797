import { afterEach, describe, expect, it } from 'vitest';
import { createContext, ServerNotFoundError } from '@mcp-agent/core';
import { MemoryPoolStore } from '../../testing/index.js';
import { ConnectionPool } from './connection-pool.js';
import { misbehaving } from './pool-test-helpers.js';

// The pool over its narrow store seam: no database, only what the pool asks of the registry.
const alice = createContext({ userId: 'alice' });
let pool: ConnectionPool | undefined;

afterEach(async () => {
  await pool?.close();
});

describe('ConnectionPool over a MemoryPoolStore', () => {
  it('connects, records readiness and the catalog in the store, and calls a tool', async () => {
    const store = new MemoryPoolStore();
    store.put('alice', misbehaving('fixture', 'normal'));
    pool = new ConnectionPool(store, { pingIntervalMs: 0, attempts: 1 });
    const [state] = await pool.warmUp(alice);
    expect(state).toMatchObject({ serverId: 'fixture', status: 'ready', catalogVersion: 1 });
    expect(store.state('alice', 'fixture')).toMatchObject({ status: 'ready' });
    expect(store.tools('alice', 'fixture').length).toBeGreaterThan(0);
    expect((await store.availability(alice)).check('fixture')).toEqual({ available: true });
    const result = await pool.callTool(alice, 'fixture', 'echo', { text: 'hi' });
    expect(JSON.stringify(result.content)).toContain('hi');
  });

  it("closes the session when the store says the server was removed; another tenant's id is unknown", async () => {
    const store = new MemoryPoolStore();
    store.put('alice', misbehaving('fixture', 'normal'));
    pool = new ConnectionPool(store, { pingIntervalMs: 0, attempts: 1 });
    await pool.waitForReady(alice, ['fixture']);
    expect(pool.size).toBe(1);
    store.remove('alice', 'fixture');
    await expect.poll(() => pool?.size).toBe(0);
    await expect(
      pool.connection(createContext({ userId: 'bob' }), 'fixture'),
    ).rejects.toBeInstanceOf(ServerNotFoundError);
  });
});
