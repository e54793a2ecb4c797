import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { openRegistry } from '../../open-registry.js';
import type { Registry } from '../../registry.js';
import { createTestRegistry } from '../../testing/index.js';
import { randomKey } from '../../testing/test-registry.js';
import { MULTI_TENANT_POLICY } from '../../store/availability/user-server-policy.js';
import { ConnectionPool } from './connection-pool.js';
import type { ConnectionPoolOptions } from './pool-options.js';
import { DEFAULT_PASSED_ENV, passedEnvFrom } from './passed-env.js';
import { alive, misbehaving, servers, stop } from './pool-test-helpers.js';
import { repositoriesOf } from '../../store/tenant-store.js';

// ConnectionPool.report: each server's own final state and a reason a user can act on, with
// real failing servers: one crashing at start, one hanging, one failing fast next to healthy ones.
const alice = createContext({ userId: 'alice' });
const opened: { registry: Registry; pool: ConnectionPool }[] = [];
const children: ChildProcess[] = [];

async function open(options: ConnectionPoolOptions = {}, registry?: Registry) {
  const held = {
    registry: registry ?? (await createTestRegistry()),
    pool: undefined as unknown as ConnectionPool,
  };
  held.pool = new ConnectionPool(held.registry, {
    attempts: 2,
    backoff: { baseMs: 20, capMs: 80 },
    pingIntervalMs: 0,
    ...options,
  });
  opened.push(held);
  return held;
}

afterEach(async () => {
  for (const { pool, registry } of opened.splice(0)) {
    await pool.close();
    await registry.close();
  }
  await Promise.all(children.splice(0).map(stop));
});

describe('ConnectionPool.report', () => {
  it('a server crashing at start reports its exit code and the line that says why, not the banner', async () => {
    const { registry, pool } = await open();
    await registry.addServer(alice, {
      id: 'crash',
      transport: 'stdio',
      command: process.execPath,
      args: [servers.crashing],
    });
    const [report] = await pool.report(alice, { timeoutMs: 20_000 });
    expect(report).toMatchObject({ serverId: 'crash', status: 'failed', attempts: 2 });
    expect(report?.reason).toBe(
      "exited with code 1 before the MCP handshake: Error: Cannot find module './lib/missing-dependency.js'",
    );
    expect(report?.reason).not.toMatch(/Node\.js v|\bat\s|\}/);
    expect((await repositoriesOf(registry).connections.get(alice, 'crash')).lastError).toBe(
      report?.reason,
    );
  });

  it('a hung server is a timeout whose reason is kept as its last error, here and in the registry', async () => {
    const { registry, pool } = await open({ attemptTimeoutMs: 20_000 });
    await registry.addServer(alice, misbehaving('hang', 'hang-init'));
    const started = Date.now();
    const [report] = await pool.report(alice, { timeoutMs: 1_500 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(report).toMatchObject({ serverId: 'hang', status: 'timeout' });
    expect(report?.reason).toMatch(/^no MCP handshake within 1\.5 s(;|$)/);
    expect(pool.status(alice)[0]).toMatchObject({
      status: 'connecting',
      lastError: 'no MCP handshake within 1.5 s',
    });
    expect((await repositoriesOf(registry).connections.get(alice, 'hang')).lastError).toBe(
      'no MCP handshake within 1.5 s',
    );
  });

  it('one server failing fast ends only its own wait; slow healthy ones are ready', async () => {
    const { registry, pool } = await open();
    const missing = join(mkdtempSync(join(tmpdir(), 'mcp-report-')), 'config.json');
    await registry.addServer(alice, misbehaving('fastfail', 'boot-needs-file', [missing]));
    await registry.addServer(alice, misbehaving('slow1', 'slow-start', ['2000']));
    await registry.addServer(alice, misbehaving('slow2', 'slow-start', ['2000']));
    await registry.addServer(alice, misbehaving('quick', 'normal'));
    const reports = await pool.report(alice, { timeoutMs: 20_000 });
    expect(reports.map((r) => [r.serverId, r.status])).toEqual([
      ['fastfail', 'failed'],
      ['quick', 'ready'],
      ['slow1', 'ready'],
      ['slow2', 'ready'],
    ]);
    expect(reports[0]?.reason).toBe(
      `exited with code 3 before the MCP handshake: cannot start: ${missing} is missing`,
    );
    expect(reports.find((r) => r.serverId === 'slow1')).toMatchObject({
      reason: null,
      toolCount: 2,
    });
  });

  it('a program that does not exist is named, with the fix, and no raw spawn message', async () => {
    const { registry, pool } = await open();
    await registry.addServer(alice, {
      id: 'nope',
      transport: 'stdio',
      command: '/nonexistent/mcp-server',
    });
    const [report] = await pool.report(alice);
    expect(report?.reason).toBe(
      'cannot start "/nonexistent/mcp-server": no such program (ENOENT); check the command and that it is on PATH',
    );
  });

  it('a hang names the proxy and certificate variables withheld from the server', async () => {
    const saved = { ...process.env };
    process.env.HTTPS_PROXY = 'http://proxy.test:3128';
    process.env.NODE_EXTRA_CA_CERTS = '/etc/ssl/inspecting-proxy.pem';
    try {
      const bare = await open({ attemptTimeoutMs: 20_000 });
      await bare.registry.addServer(alice, misbehaving('hang', 'hang-init'));
      const [report] = await bare.pool.report(alice, { timeoutMs: 1_000 });
      expect(report?.withheldEnv).toEqual(
        expect.arrayContaining(['NODE_EXTRA_CA_CERTS', 'HTTPS_PROXY']),
      );
      expect(report?.reason).toMatch(
        /withheld from its environment: .*NODE_EXTRA_CA_CERTS.*HTTPS_PROXY.* \(set on this host; pass them with MCP_AGENT_PASS_ENV\)$/,
      );
      // Passed through (the stack's default), the same variables reach the server.
      const passing = await open({ passEnv: DEFAULT_PASSED_ENV });
      await passing.registry.addServer(alice, misbehaving('env', 'normal'));
      const result = await passing.pool.callTool(alice, 'env', 'env', {});
      const keys = JSON.parse((result.content as { text: string }[])[0]?.text ?? '[]') as string[];
      expect(keys).toEqual(expect.arrayContaining(['HTTPS_PROXY', 'NODE_EXTRA_CA_CERTS']));
      expect(keys).not.toContain('MCP_AGENT_SECRET_KEY');
    } finally {
      process.env = saved;
    }
  });

  it('MCP_AGENT_PASS_ENV: unset is the documented set, "default" extends it, empty passes none', () => {
    expect(passedEnvFrom({})).toBe(DEFAULT_PASSED_ENV);
    expect(passedEnvFrom({ MCP_AGENT_PASS_ENV: 'default,JAVA_HOME' })).toEqual([
      ...DEFAULT_PASSED_ENV,
      'JAVA_HOME',
    ]);
    expect(passedEnvFrom({ MCP_AGENT_PASS_ENV: '' })).toEqual([]);
    expect(() => passedEnvFrom({ MCP_AGENT_PASS_ENV: 'HTTPS_PROXY,no way' })).toThrow(
      /lists "no way", which is not a variable name/,
    );
  });

  it('a server that answers 401 needs authorisation after one attempt, not three', async () => {
    const fixture = spawn(process.execPath, [servers.oauth], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(fixture);
    const base = await new Promise<string>((resolve, reject) => {
      let out = '';
      fixture.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening (\S+)/.exec(out);
        if (match) resolve(match[1] as string);
      });
      fixture.once('exit', (code) => reject(new Error(`fixture exited ${code}`)));
    });
    const { registry, pool } = await open({ attempts: 3 });
    await registry.addServer(alice, { id: 'linear', transport: 'auto', url: `${base}/mcp` });
    const [report] = await pool.report(alice, { timeoutMs: 20_000 });
    expect(report).toMatchObject({ status: 'needs_auth', attempts: 1 });
    expect(report?.reason).toBe('the server requires authorisation (HTTP 401); sign in to it');
    expect((await registry.availability(alice)).check('linear')).toMatchObject({
      available: false,
      code: 'needs_auth',
    });
  });

  it('a server the policy no longer allows is refused, and a disabled one says so', async () => {
    const home = mkdtempSync(join(tmpdir(), 'mcp-report-policy-'));
    const env = { MCP_AGENT_SECRET_KEY: randomKey() };
    const file = join(home, 'registry.db');
    const before = await openRegistry({ url: file, home, env });
    await before.addServer(alice, misbehaving('local', 'normal'));
    await before.addServer(alice, { ...misbehaving('off', 'normal'), enabled: false });
    await before.close();
    const { pool } = await open(
      {},
      await openRegistry({ url: file, home, env, userServers: MULTI_TENANT_POLICY }),
    );
    const reports = await pool.report(alice);
    expect(reports.map((r) => [r.serverId, r.status])).toEqual([
      ['local', 'refused'],
      ['off', 'disabled'],
    ]);
    expect(reports[0]?.reason).toMatch(/stdio/);
    expect(pool.size).toBe(0);
  });

  it('STD-05 closing mid-discovery ends the process of the attempt under way, and its children', async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'mcp-report-stuck-')), 'child.pid');
    const { registry, pool } = await open({ attemptTimeoutMs: 20_000 });
    await registry.addServer(alice, misbehaving('stuck', 'stuck', [pidFile]));
    await pool.report(alice, { timeoutMs: 1_000 });
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(grandchild)).toBe(true);
    await pool.close();
    await expect.poll(() => alive(grandchild), { timeout: 5_000 }).toBe(false);
  });
});
