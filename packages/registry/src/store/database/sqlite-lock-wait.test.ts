import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createContext, TimeoutError } from '@mcp-agent/core';
import { openRegistry } from '../../open-registry.js';
import type { Registry } from '../../registry.js';
import { type HeldLock, holdSqliteLock, watchEventLoop } from '@mcp-agent/test-support';
import { repositoriesOf } from '../tenant-store.js';

const alice = createContext({ userId: 'alice' });
const bob = createContext({ userId: 'bob' });
const BetterSqlite = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
// The lock is held this long; the loop may stall far less, even on a loaded 2-core machine.
const HOLD_MS = 3_000;
const STALL_BOUND_MS = 500;

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openOnDisk(options: { lockTimeoutMs?: number } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'mcp-lock-'));
  const registry = await openRegistry({
    home,
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
    ...options,
  });
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  cleanups.push(() => registry.close());
  return { registry, file: join(home, 'mcp-agent.db') };
}

async function lock(file: string): Promise<HeldLock> {
  const held = await holdSqliteLock(file, HOLD_MS);
  cleanups.push(() => held.kill());
  // The lock is really held: a write that does not wait at all is refused.
  const probe = new BetterSqlite(file, { timeout: 0 });
  try {
    expect(() => probe.exec('BEGIN IMMEDIATE')).toThrow(/locked/);
  } finally {
    probe.close();
  }
  return held;
}

const writes = (registry: Registry) =>
  Promise.all([
    registry.addServer(alice, {
      id: 'github',
      transport: 'streamable-http',
      url: 'https://api.example.com/mcp',
      headers: { Authorization: 'Bearer t' },
    }),
    repositoriesOf(registry).threads.activate(bob, 'thread-1', ['docs']),
    repositoriesOf(registry).authConfigs.upsert(alice, { serverId: 'github', kind: 'oauth' }),
  ]);

describe('SQLite shared with another process', () => {
  it("API-06 writes wait for another process's lock without stalling the event loop, then succeed", async () => {
    const { registry, file } = await openOnDisk();
    const held = await lock(file);
    const loop = watchEventLoop();
    const started = performance.now();
    // Reads do not wait: WAL readers never block on a writer.
    expect(await repositoriesOf(registry).connections.list(alice)).toEqual([]);
    await writes(registry);
    const waitedMs = performance.now() - started;
    const stallMs = loop.stop();
    expect(stallMs, `longest event-loop stall ${stallMs.toFixed(1)} ms`).toBeLessThan(
      STALL_BOUND_MS,
    );
    // They did wait for the other process (a lower bound cannot fail on a slow machine).
    expect(waitedMs).toBeGreaterThan(1_000);
    await held.released;
    expect((await repositoriesOf(registry).connections.list(alice)).map((r) => r.serverId)).toEqual(
      ['github'],
    );
    expect(await repositoriesOf(registry).threads.list(bob, 'thread-1')).toEqual(['docs']);
    expect(await repositoriesOf(registry).authConfigs.find(alice, 'github')).toMatchObject({
      kind: 'oauth',
    });
  });

  it('API-06 past the bound a write fails with TIMEOUT saying the database is locked, and writes nothing', async () => {
    const { registry, file } = await openOnDisk({ lockTimeoutMs: 500 });
    const held = await lock(file);
    const loop = watchEventLoop();
    const error = await registry
      .addServer(alice, { id: 'github', transport: 'sse', url: 'https://x.example/sse' })
      .catch((e: unknown) => e);
    expect(loop.stop()).toBeLessThan(STALL_BOUND_MS);
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect((error as TimeoutError).message).toMatch(
      /SQLite database is locked by another process .*Let it finish or stop it, then retry/,
    );
    expect((error as TimeoutError).details).toMatchObject({ reason: 'database_locked' });
    await held.released;
    expect(await repositoriesOf(registry).connections.list(alice)).toEqual([]);
    // Once the other process is gone, the same write goes through.
    await registry.addServer(alice, {
      id: 'github',
      transport: 'sse',
      url: 'https://x.example/sse',
    });
    expect(await repositoriesOf(registry).connections.list(alice)).toHaveLength(1);
  });
});
