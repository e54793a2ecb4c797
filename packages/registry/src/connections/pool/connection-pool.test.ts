import { getEventListeners } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext, NotReadyError } from '@mcp-agent/core';
import { wireModeFrom } from '@mcp-agent/wire';
import type { ChildProcess } from 'node:child_process';
import { createTestRegistry } from '../../testing/index.js';
import type { Registry } from '../../registry.js';
import { ConnectionPool } from './connection-pool.js';
import type { ConnectionState } from '../../store/readiness/connection-state.js';
import {
  freePort,
  misbehaving,
  servers,
  startEverythingHttp,
  startSdkHttpServer,
  stop,
} from './pool-test-helpers.js';
import { repositoriesOf } from '../../store/tenant-store.js';

const alice = createContext({ userId: 'alice' });
const bob = createContext({ userId: 'bob' });
const fast = {
  attempts: 2,
  backoff: { baseMs: 20, capMs: 100 },
  attemptTimeoutMs: 10_000,
  pingIntervalMs: 0,
  // MCP_AGENT_WIRE=sdk runs this file on the MCP SDK alone (the test command runs it both ways).
  wire: wireModeFrom(process.env),
};

let registry: Registry;
let pool: ConnectionPool;
const children: ChildProcess[] = [];

beforeEach(async () => {
  registry = await createTestRegistry();
  pool = new ConnectionPool(registry, fast);
});
afterEach(async () => {
  await pool.close();
  await registry.close();
  await Promise.all(children.splice(0).map(stop));
});

function textOf(result: { content?: unknown }): string {
  const [first] = (result.content ?? []) as { type: string; text?: string }[];
  return first?.text ?? '';
}

describe('ConnectionPool with real servers from npm', () => {
  it('RDY-01 everything, filesystem and memory over stdio are ready in one attempt, catalogs cached', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-fs-'));
    await registry.addServer(alice, {
      id: 'everything',
      transport: 'stdio',
      command: process.execPath,
      args: [servers.everything],
    });
    await registry.addServer(alice, {
      id: 'files',
      transport: 'stdio',
      command: process.execPath,
      args: [servers.filesystem, dir],
    });
    await registry.addServer(alice, {
      id: 'memory',
      transport: 'stdio',
      command: process.execPath,
      args: [servers.memory],
      env: { MEMORY_FILE_PATH: join(dir, 'memory.json') },
    });
    await pool.waitForReady(alice, ['everything', 'files', 'memory'], { timeoutMs: 20_000 });
    for (const state of pool.status(alice)) {
      expect(state).toMatchObject({ status: 'ready', attempts: 1, lastError: null });
      expect(state.toolCount).toBeGreaterThan(0);
    }
    const rows = await repositoriesOf(registry).connections.list(alice);
    expect(rows.map((r) => [r.serverId, r.status])).toEqual([
      ['everything', 'ready'],
      ['files', 'ready'],
      ['memory', 'ready'],
    ]);
    expect(
      (await repositoriesOf(registry).catalog.list(alice, 'memory')).map((t) => t.name),
    ).toContain('create_entities');
    const echo = await pool.callTool(alice, 'everything', 'echo', { message: 'hello' });
    expect(textOf(echo)).toContain('hello');
    const listed = await pool.callTool(alice, 'files', 'list_allowed_directories', {});
    expect(textOf(listed)).toContain(dir);
    expect(pool.status(alice).find((s) => s.serverId === 'everything')?.metrics.calls).toBe(1);
  });

  it('streamable HTTP and auto both reach server-everything over loopback', async () => {
    const port = await freePort();
    children.push(await startEverythingHttp(port));
    const url = `http://127.0.0.1:${port}/mcp`;
    await registry.addServer(alice, { id: 'remote', transport: 'streamable-http', url });
    await registry.addServer(alice, { id: 'remote-auto', transport: 'auto', url });
    expect(
      textOf(await pool.callTool(alice, 'remote', 'echo', { message: 'over http' })),
    ).toContain('over http');
    expect(
      textOf(await pool.callTool(alice, 'remote-auto', 'echo', { message: 'auto' })),
    ).toContain('auto');
  });

  it('HTTP-01 a 404 for the session re-initialises once and retries the request once', async () => {
    const server = await startSdkHttpServer();
    children.push(server.child);
    await registry.addServer(alice, { id: 'sdk', transport: 'streamable-http', url: server.url });
    expect(textOf(await pool.callTool(alice, 'sdk', 'echo', { message: 'one' }))).toBe('one');
    const before = (await pool.connection(alice, 'sdk')).client;
    await server.forgetSessions();
    expect(textOf(await pool.callTool(alice, 'sdk', 'echo', { message: 'two' }))).toBe('two');
    expect((await pool.connection(alice, 'sdk')).client).not.toBe(before);
    expect(server.notFoundCount()).toBe(1);
  });

  it('HTTP-01 server-everything\'s 400 "No valid session ID" after a restart counts as an expired session', async () => {
    const port = await freePort();
    const first = await startEverythingHttp(port);
    await registry.addServer(alice, {
      id: 'remote',
      transport: 'streamable-http',
      url: `http://127.0.0.1:${port}/mcp`,
    });
    await pool.callTool(alice, 'remote', 'echo', { message: 'one' });
    const before = (await pool.connection(alice, 'remote')).client;
    // The server restarts and forgets every session.
    await stop(first);
    children.push(await startEverythingHttp(port));
    expect(textOf(await pool.callTool(alice, 'remote', 'echo', { message: 'two' }))).toContain(
      'two',
    );
    const after = (await pool.connection(alice, 'remote')).client;
    expect(after).not.toBe(before);
    expect(pool.status(alice)[0]).toMatchObject({ status: 'ready' });
  });

  it('RDY-07 fifty concurrent first calls share one connect and one discovery', async () => {
    await registry.addServer(alice, misbehaving('echo', 'normal'));
    const states: ConnectionState[] = [];
    pool.on('state', (state) => states.push(state));
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => pool.callTool(alice, 'echo', 'echo', { text: `n${i}` })),
    );
    expect(results.map(textOf)).toEqual(Array.from({ length: 50 }, (_, i) => `n${i}`));
    expect(states.filter((s) => s.status === 'connecting')).toHaveLength(1);
    expect(pool.size).toBe(1);
  });

  it('calls and reads on one long-lived signal leave no listener on it', async () => {
    await registry.addServer(alice, misbehaving('echo', 'normal'));
    const task = new AbortController();
    const options = { signal: task.signal };
    for (let i = 0; i < 20; i++)
      expect(textOf(await pool.callTool(alice, 'echo', 'echo', { text: `n${i}` }, options))).toBe(
        `n${i}`,
      );
    await Promise.all(
      Array.from({ length: 20 }, () =>
        pool.callTool(alice, 'echo', 'echo', { text: 'x' }, options),
      ),
    );
    // A request through the SDK's client (a resource listing) is linked to it, then unlinked.
    await registry.addServer(alice, {
      id: 'everything',
      transport: 'stdio',
      command: process.execPath,
      args: [servers.everything],
    });
    for (let i = 0; i < 3; i++)
      expect((await pool.listResources(alice, 'everything', options)).supported).toBe(true);
    expect(getEventListeners(task.signal, 'abort')).toHaveLength(0);
  });

  it('RDY-08 two tenants with the same URL and different credentials never share a session', async () => {
    const port = await freePort();
    children.push(await startEverythingHttp(port));
    const url = `http://127.0.0.1:${port}/mcp`;
    await registry.addServer(alice, {
      id: 'remote',
      transport: 'streamable-http',
      url,
      headers: { Authorization: 'Bearer alice' },
    });
    await registry.addServer(bob, {
      id: 'remote',
      transport: 'streamable-http',
      url,
      headers: { Authorization: 'Bearer bob' },
    });
    await pool.callTool(alice, 'remote', 'echo', { message: 'a' });
    await pool.callTool(bob, 'remote', 'echo', { message: 'b' });
    const a = await pool.connection(alice, 'remote');
    const b = await pool.connection(bob, 'remote');
    expect(a).not.toBe(b);
    expect(a.credentialVersion).not.toBe(b.credentialVersion);
    const sessionOf = (c: typeof a) =>
      (c.client?.transport as { sessionId?: string } | undefined)?.sessionId;
    expect(sessionOf(a)).toBeDefined();
    expect(sessionOf(a)).not.toBe(sessionOf(b));
    expect(pool.status(alice)).toHaveLength(1);
    expect(pool.status(bob)).toHaveLength(1);
  });

  it('a changed or removed server closes its session without a restart of the pool', async () => {
    await registry.addServer(alice, misbehaving('echo', 'normal'));
    await pool.callTool(alice, 'echo', 'echo', { text: 'x' });
    const first = await pool.connection(alice, 'echo');
    await registry.addServer(alice, { ...misbehaving('echo', 'normal'), env: { CHANGED: '1' } });
    await new Promise((r) => setTimeout(r, 50));
    const second = await pool.connection(alice, 'echo');
    expect(second).not.toBe(first);
    expect(first.client).toBeUndefined();
    await registry.removeServer(alice, 'echo');
    await new Promise((r) => setTimeout(r, 50));
    expect(pool.size).toBe(0);
    await expect(pool.connection(alice, 'echo')).rejects.toThrow(/No server "echo"/);
  });

  it('STD-07 the child sees only safe variables and its declared env', async () => {
    process.env.MCP_AGENT_DATABASE_URL_FOR_TEST = 'postgres://secret';
    try {
      await registry.addServer(alice, {
        ...misbehaving('env', 'normal'),
        env: { DECLARED: 'yes' },
      });
      const keys = JSON.parse(textOf(await pool.callTool(alice, 'env', 'env', {}))) as string[];
      expect(keys).toContain('DECLARED');
      expect(keys).toContain('PATH');
      expect(keys).not.toContain('MCP_AGENT_DATABASE_URL_FOR_TEST');
      expect(
        keys.every((k) =>
          ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'DECLARED'].includes(k),
        ),
      ).toBe(true);
    } finally {
      delete process.env.MCP_AGENT_DATABASE_URL_FOR_TEST;
    }
  });

  it('zero tools after a successful list is recorded as zero', async () => {
    await registry.addServer(alice, misbehaving('empty', 'zero-tools'));
    await pool.waitForReady(alice, ['empty']);
    expect(pool.status(alice)[0]).toMatchObject({ status: 'ready', toolCount: 0 });
    expect((await repositoriesOf(registry).connections.get(alice, 'empty')).toolCount).toBe(0);
  });

  it('list_changed refreshes the catalog, bumps its version and reports changed tools', async () => {
    await registry.addServer(alice, misbehaving('live', 'normal'));
    await pool.waitForReady(alice, ['live']);
    const version = (await repositoriesOf(registry).connections.get(alice, 'live')).catalogVersion;
    const changed = new Promise((resolve) => pool.once('tools-changed', resolve));
    await pool.callTool(alice, 'live', 'mutate', {});
    expect(await changed).toMatchObject({
      userId: 'alice',
      serverId: 'live',
      update: { changed: ['echo'], added: ['added'], removed: ['mutate'] },
    });
    expect((await repositoriesOf(registry).connections.get(alice, 'live')).catalogVersion).toBe(
      version + 1,
    );
  });

  it("waitForReady rejects at once with every server's state when one fails", async () => {
    await registry.addServer(alice, misbehaving('good', 'normal'));
    await registry.addServer(alice, {
      id: 'bad',
      transport: 'stdio',
      command: '/nonexistent/binary',
    });
    const started = Date.now();
    const error = await pool
      .waitForReady(alice, ['good', 'bad'], { timeoutMs: 20_000 })
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(NotReadyError.isInstance(error)).toBe(true);
    const servers = (error as NotReadyError).details.servers as {
      id: string;
      status: string;
      lastError: string;
    }[];
    expect(servers.find((s) => s.id === 'bad')).toMatchObject({
      status: 'failed',
      lastError: expect.stringMatching(/ENOENT/),
    });
    expect((error as Error).message).toMatch(/bad: failed/);
    await expect(pool.waitForReady(alice, ['nope'])).rejects.toThrow(/nope: not_found/);
  });

  it('waitForReady times out with the states of servers still connecting', async () => {
    await registry.addServer(alice, misbehaving('slow', 'hang-init'));
    const error = await pool
      .waitForReady(alice, ['slow'], { timeoutMs: 300 })
      .catch((e: unknown) => e);
    expect(NotReadyError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/not ready within 300 ms: slow: connecting/);
  });
});
