import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { createContext } from '@mcp-agent/core';
import { round3 } from '@mcp-agent/core/testing';
import { openRegistry } from '@mcp-agent/registry';
import { holdSqliteLock, watchEventLoop } from '@mcp-agent/test-support';

const HOLD_MS = 3_000;

/** One write while another process holds the lock: how long it waited, how long the loop stalled. */
async function measure(file: string, write: () => Promise<unknown>) {
  const held = await holdSqliteLock(file, HOLD_MS);
  try {
    const loop = watchEventLoop();
    const started = performance.now();
    await write();
    const writeWaitedMs = performance.now() - started;
    return { writeWaitedMs: round3(writeWaitedMs), longestStallMs: round3(loop.stop()) };
  } finally {
    await held.released;
  }
}

/**
 * API-06: a registry write while another process holds the SQLite write lock for 3 s, against
 * the same write through a connection that waits in SQLite's busy handler (5 s, as before).
 */
export async function runSqliteLockBenchmark(): Promise<Record<string, unknown>> {
  const home = mkdtempSync(join(tmpdir(), 'mcp-bench-lock-'));
  const file = join(home, 'mcp-agent.db');
  const registry = await openRegistry({
    home,
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
  });
  try {
    const ctx = createContext({ userId: 'bench' });
    const BetterSqlite = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
    const blocking = new BetterSqlite(file, { timeout: 5_000 });
    const busyHandler = await measure(file, async () => {
      blocking.prepare('insert into users values (?, ?, ?)').run('blocking', 'now', 'now');
    });
    blocking.close();
    // A write through the registry's public surface: one audit row.
    const lockWait = await measure(file, () =>
      registry.recordAudit(ctx, { action: 'server.added', serverId: 'docs' }),
    );
    return { lockHeldMs: HOLD_MS, busyHandler5s: busyHandler, registry: lockWait };
  } finally {
    await registry.close();
    rmSync(home, { recursive: true, force: true });
  }
}
