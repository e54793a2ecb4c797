import { afterEach, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { createManualClock } from '@mcp-agent/core/testing';
import { liveChildren } from '@mcp-agent/test-support';
import { createTestRegistry } from '../../testing/index.js';
import type { Registry } from '../../registry.js';
import { ConnectionPool } from './connection-pool.js';
import { misbehaving, servers } from './pool-test-helpers.js';

const IDLE_MS = 60_000;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// The MCP server processes this test process started: children whose command line names the
// fixture. Counted from /proc, not from the pool, so a process the pool forgot still counts.
function serverProcesses(): number[] {
  return liveChildren(process.pid, servers.misbehaving);
}

async function openPool(): Promise<{ registry: Registry; pool: ConnectionPool }> {
  const registry = await createTestRegistry();
  // Maintenance timers off: the test sweeps when its clock says so.
  const pool = new ConnectionPool(registry, { idleMs: IDLE_MS, pingIntervalMs: 0, attempts: 1 });
  cleanups.push(
    () => registry.close(),
    () => pool.close(),
  );
  return { registry, pool };
}

describe('idle connections', () => {
  it('LOAD-10 a server that was only listed is reaped after the idle timeout like one that was called; a ping does not keep it', async () => {
    const clock = createManualClock();
    const searcher = createContext({ userId: 'searcher', clock });
    const caller = createContext({ userId: 'caller', clock });
    const { registry, pool } = await openPool();
    await registry.addServer(searcher, misbehaving('listed', 'normal'));
    await registry.addServer(caller, misbehaving('called', 'normal'));

    // One tenant only lists (connect + tools/list, what search needs); the other calls.
    await pool.waitForReady(searcher, ['listed']);
    await pool.callTool(caller, 'called', 'echo', { text: 'hi' });
    expect(pool.size).toBe(2);
    expect(serverProcesses()).toHaveLength(2);

    clock.advance(IDLE_MS / 2);
    expect(await pool.evictIdle()).toBe(0);
    // Halfway: the caller calls again; the searcher's connection only gets a health ping.
    await pool.callTool(caller, 'called', 'echo', { text: 'again' });
    expect(await (await pool.connection(searcher, 'listed')).ping()).toBe(true);

    clock.advance(IDLE_MS / 2 + 1);
    expect(await pool.evictIdle()).toBe(1);
    expect(pool.size).toBe(1);
    expect(pool.status(searcher)).toEqual([]);
    expect(pool.status(caller)).toHaveLength(1);
    await expect.poll(() => serverProcesses().length, { timeout: 10_000 }).toBe(1);

    clock.advance(IDLE_MS / 2);
    expect(await pool.evictIdle()).toBe(1);
    expect(pool.size).toBe(0);
    await expect.poll(() => serverProcesses().length, { timeout: 10_000 }).toBe(0);

    // Nothing is lost: the next use reconnects, and its idle time starts again.
    await pool.waitForReady(searcher, ['listed']);
    expect(pool.size).toBe(1);
    clock.advance(IDLE_MS - 1);
    expect(await pool.evictIdle()).toBe(0);
    expect(serverProcesses()).toHaveLength(1);
  });

  it('LOAD-10 a connection opened but never discovered goes idle too', async () => {
    const clock = createManualClock();
    const ctx = createContext({ userId: 'opener', clock });
    const { registry, pool } = await openPool();
    await registry.addServer(ctx, misbehaving('opened', 'normal'));
    await pool.connection(ctx, 'opened');
    expect(pool.size).toBe(1);
    clock.advance(IDLE_MS + 1);
    expect(await pool.evictIdle()).toBe(1);
    expect(pool.size).toBe(0);
    expect(serverProcesses()).toHaveLength(0);
  });
});
