import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode as McpErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { createContext } from '@mcp-agent/core';
import { createManualClock } from '@mcp-agent/core/testing';
import { createTestRegistry } from '../../testing/index.js';
import type { Registry } from '../../registry.js';
import { ConnectionPool } from './connection-pool.js';
import { alive, misbehaving, servers } from './pool-test-helpers.js';
import { ProcessTransport } from '@mcp-agent/wire';
import { repositoriesOf } from '../../store/tenant-store.js';

const alice = createContext({ userId: 'alice' });
let registry: Registry;
let pool: ConnectionPool;

beforeEach(async () => {
  registry = await createTestRegistry();
  pool = new ConnectionPool(registry, {
    attempts: 3,
    backoff: { baseMs: 20, capMs: 80 },
    attemptTimeoutMs: 2_000,
    pingIntervalMs: 0,
  });
});
afterEach(async () => {
  await pool.close();
  await registry.close();
});

function descendants(): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,comm=']).toString();
  const children = new Map<number, number[]>();
  for (const line of out.trim().split('\n')) {
    const [pid, ppid, command] = line.trim().split(/\s+/);
    if (command === 'ps') continue; // this very listing
    children.set(Number(ppid), [...(children.get(Number(ppid)) ?? []), Number(pid)]);
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(process.pid);
  return found.filter((pid) => pid !== process.pid);
}

describe('stdio faults', () => {
  it('STD-01 a server that exits mid-call rejects the call within 1 s with -32000, then restarts', async () => {
    await registry.addServer(alice, misbehaving('crashy', 'crash-on-call'));
    await pool.waitForReady(alice, ['crashy']);
    const started = Date.now();
    const error = await pool
      .callTool(alice, 'crashy', 'echo', { text: 'x' })
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(McpErrorCode.ConnectionClosed);
    // Restarted with backoff and re-discovered before it is ready again.
    await expect.poll(() => pool.status(alice)[0]?.status, { timeout: 5_000 }).toBe('ready');
  });

  it('STD-02 a server that never answers times out at the configured timeout with -32001', async () => {
    await registry.addServer(alice, misbehaving('hangs', 'hang-call'));
    await pool.waitForReady(alice, ['hangs']);
    const started = Date.now();
    const error = await pool
      .callTool(alice, 'hangs', 'echo', {}, { timeoutMs: 300 })
      .catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    // Explained: the server, the limit, the progress seen, how to raise it (request-timeout.ts).
    expect(error).toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringMatching(
        /^Server "hangs" sent no answer within 0\.3 s \(and no progress\)/,
      ),
    });
    expect((error as { cause: McpError }).cause.code).toBe(McpErrorCode.RequestTimeout);
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(800);
  });

  it('cancellation through the signal rejects the call at once', async () => {
    await registry.addServer(alice, misbehaving('hangs', 'hang-call'));
    await pool.waitForReady(alice, ['hangs']);
    const controller = new AbortController();
    const pending = pool.callTool(alice, 'hangs', 'echo', {}, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user cancelled')), 50);
    await expect(pending).rejects.toThrow(/user cancelled/);
  });

  it('STD-03 a garbage line on stdout is skipped and the connection survives', async () => {
    await registry.addServer(alice, misbehaving('noisy', 'garbage'));
    const result = await pool.callTool(alice, 'noisy', 'echo', { text: 'still here' });
    expect(result.content).toEqual([{ type: 'text', text: 'still here' }]);
    expect(pool.status(alice)[0]?.status).toBe('ready');
  });

  it('RDY-09 a session idle for over a minute is pinged before reuse; a failed ping reconnects', async () => {
    const clock = createManualClock();
    const ctx = createContext({ userId: 'alice', clock });
    await registry.addServer(ctx, misbehaving('sleepy', 'normal'));
    const pidOf = async () =>
      Number(
        ((await pool.callTool(ctx, 'sleepy', 'pid', {})).content as { text: string }[])[0]?.text,
      );
    const first = await pidOf();
    // The server stops answering (as a wedged or half-dead process does) while the session idles.
    process.kill(first, 'SIGSTOP');
    clock.advance(61_000);
    const result = await pool.callTool(ctx, 'sleepy', 'echo', { text: 'after the nap' });
    expect(result.content).toEqual([{ type: 'text', text: 'after the nap' }]);
    const second = await pidOf();
    expect(second).not.toBe(first);
    await expect.poll(() => alive(first), { timeout: 10_000 }).toBe(false);
  }, 30_000);

  it('STD-04 an endless line without a newline is cut at the buffer bound and the session fails', async () => {
    await registry.addServer(alice, misbehaving('endless', 'endless-line'));
    const before = process.memoryUsage().rss;
    await expect(pool.waitForReady(alice, ['endless'], { timeoutMs: 10_000 })).rejects.toThrow(
      /failed/,
    );
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  });

  it('STD-05 closing leaves no grandchild of a wrapper alive', async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'mcp-gc-')), 'grandchild.pid');
    await registry.addServer(alice, misbehaving('wrapper', 'fork-grandchild', [pidFile]));
    await pool.waitForReady(alice, ['wrapper']);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(grandchild)).toBe(true);
    const started = Date.now();
    await pool.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect.poll(() => alive(grandchild), { timeout: 2_000 }).toBe(false);
  });

  it('STD-06 a server that ignores stdin EOF and SIGTERM is killed at the end of the ladder', async () => {
    const transport = new ProcessTransport({
      command: process.execPath,
      args: [servers.misbehaving, 'ignore-term'],
      env: {},
    });
    await transport.start();
    const pid = transport.pid as number;
    expect(alive(pid)).toBe(true);
    const started = Date.now();
    await transport.close();
    const took = Date.now() - started;
    // EOF, then 2 s, SIGTERM (ignored), then 2 s, SIGKILL: about 4 s, never much more.
    expect(took).toBeGreaterThanOrEqual(3_500);
    expect(took).toBeLessThan(5_000);
    await expect.poll(() => alive(pid), { timeout: 2_000 }).toBe(false);
  });

  it('STD-10 a stderr flood is drained into a bounded tail', async () => {
    const transport = new ProcessTransport({
      command: process.execPath,
      args: [servers.misbehaving, 'flood-stderr'],
      env: {},
    });
    await transport.start();
    await new Promise((r) => setTimeout(r, 500));
    expect(transport.stderrTail.length).toBeLessThanOrEqual(8 * 1024);
    await transport.close();
  });

  it('STD-09 1,000 connect/close cycles leave no orphan and no growing listeners', async () => {
    const baselineListeners = process.listenerCount('exit') + process.listenerCount('SIGTERM');
    for (let batch = 0; batch < 100; batch++) {
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          const transport = new ProcessTransport({
            command: 'sh',
            args: [servers.tiny],
            env: {},
            closeGraceMs: 500,
          });
          const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
          const client = new Client({ name: 'churn', version: '1' });
          await client.connect(transport);
          await client.close();
        }),
      );
    }
    await expect.poll(() => descendants().length, { timeout: 5_000 }).toBe(0);
    expect(process.listenerCount('exit') + process.listenerCount('SIGTERM')).toBe(
      baselineListeners,
    );
  }, 120_000);
});

describe('readiness faults', () => {
  it('RDY-02 and RDY-03 a server down at boot fails after its attempts, then recovers on the next try', async () => {
    const marker = join(mkdtempSync(join(tmpdir(), 'mcp-boot-')), 'ready');
    await registry.addServer(alice, misbehaving('late', 'boot-needs-file', [marker]));
    const states: string[] = [];
    pool.on('state', (s) => states.push(`${s.status}:${s.attempts}`));
    await expect(pool.waitForReady(alice, ['late'])).rejects.toThrow(/late: failed/);
    expect(states).toEqual(['connecting:1', 'connecting:2', 'connecting:3', 'failed:3']);
    const failed = await repositoriesOf(registry).connections.get(alice, 'late');
    expect(failed).toMatchObject({ status: 'failed', attempts: 3 });
    expect(failed.lastError).toMatch(/missing/);
    writeFileSync(marker, 'ok');
    expect(existsSync(marker)).toBe(true);
    await pool.waitForReady(alice, ['late']);
    expect(pool.status(alice)[0]).toMatchObject({ status: 'ready', lastError: null });
    expect((await repositoriesOf(registry).catalog.list(alice, 'late')).map((t) => t.name)).toEqual(
      ['echo', 'mutate'],
    );
  });

  it('RDY-04 one of 20 servers hanging in initialize does not delay the other 19', async () => {
    // The hung server's attempt outlasts the healthy ones' start-up by a wide margin, so the
    // order is what is asserted, not a wall-clock figure that a loaded machine would break.
    const hungPool = new ConnectionPool(registry, {
      attempts: 1,
      attemptTimeoutMs: 8_000,
      pingIntervalMs: 0,
    });
    try {
      const ids = Array.from({ length: 20 }, (_, i) => `s${i}`);
      for (const id of ids)
        await registry.addServer(alice, misbehaving(id, id === 's7' ? 'hang-init' : 'normal'));
      const healthy = ids.filter((id) => id !== 's7');
      const hung = hungPool
        .waitForReady(alice, ['s7'], { timeoutMs: 15_000 })
        .catch((e: unknown) => e);
      await hungPool.waitForReady(alice, healthy, { timeoutMs: 15_000 });
      // All 19 are ready while the hung one is still in its first attempt.
      expect(hungPool.status(alice).find((s) => s.serverId === 's7')?.status).toBe('connecting');
      expect(String(await hung)).toMatch(
        /s7: failed \(initialize and tools\/list took over 8000 ms\)/,
      );
    } finally {
      await hungPool.close();
    }
  });
});
