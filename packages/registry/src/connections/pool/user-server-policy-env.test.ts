import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createContext, PolicyDeniedError, type StdioServerConfig } from '@mcp-agent/core';
import { openRegistry } from '../../open-registry.js';
import { ConnectionPool } from './connection-pool.js';
import { servers } from './pool-test-helpers.js';
import type { Registry } from '../../registry.js';
import { ensureTenantFolder } from '../../store/availability/tenant-folder.js';
import type { EnvValueRule } from '../../store/availability/user-server-policy-env.js';
import {
  checkUserServer,
  launchUserServer,
  type UserServerPolicy,
} from '../../store/availability/user-server-policy.js';
import { repositoriesOf } from '../../store/tenant-store.js';

const alice = createContext({ userId: 'alice' });
const bob = createContext({ userId: 'Bob@example.com' });
const memory = (env: Record<string, string> = {}) => ({
  id: 'memory',
  transport: 'stdio' as const,
  command: process.execPath,
  args: [servers.memory],
  env,
});
const policyWith = (env: readonly string[] | Record<string, EnvValueRule>): UserServerPolicy => ({
  stdio: [{ command: process.execPath, args: [servers.memory], env }],
  remote: 'public',
});

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// A registry on disk whose key file exists, as the embedded default creates it.
async function open(policy: UserServerPolicy): Promise<{ registry: Registry; home: string }> {
  const home = mkdtempSync(join(tmpdir(), 'mcp-gw05-'));
  const registry = await openRegistry({ home, env: {}, userServers: policy });
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  cleanups.push(() => registry.close());
  expect(existsSync(join(home, 'secret.key'))).toBe(true);
  return { registry, home };
}

async function refusal(registry: Registry, value: string): Promise<unknown> {
  return registry
    .addServer(alice, memory({ MEMORY_FILE_PATH: value }))
    .then(() => 'accepted')
    .catch((e: unknown) => e);
}

describe('stdio environment values of allow-listed servers', () => {
  it("GW-05 another tenant's file, the key file and the registry's own files are refused; the tenant's own folder is not", async () => {
    // The allowlist as operators wrote it before rules existed: names only.
    const { registry, home } = await open(policyWith(['MEMORY_FILE_PATH']));
    const bobs = registry.tenantFolder(bob).path;
    const own = registry.tenantFolder(alice).path;
    for (const value of [
      join(home, 'secret.key'),
      pathToFileURL(join(home, 'secret.key')).href,
      join(home, 'mcp-agent.db'),
      join(bobs, 'memory.json'),
      `../${bobs.split('/').at(-1)}/memory.json`, // a `..` escape into bob's folder
      '../../secret.key',
      `${own}/../../secret.key`,
      '..',
      '~/.mcp-agent/secret.key',
      '/etc/passwd',
      '/proc/self/environ',
    ]) {
      const error = await refusal(registry, value);
      expect(PolicyDeniedError.isInstance(error), value).toBe(true);
      expect((error as Error).message).toMatch(
        /MEMORY_FILE_PATH names a path outside this user's own folder; give a path relative to that folder/,
      );
      // The refusal names no host path.
      expect((error as Error).message).not.toContain(home);
    }
    expect(await repositoriesOf(registry).connections.list(alice)).toEqual([]);
    for (const value of ['memory.json', './memory.json', 'notes/memory.json', join(own, 'm.json')])
      expect(await refusal(registry, value), value).toBe('accepted');
    // Bob's folder is his: a name that differs only in case or characters gets another folder.
    expect(registry.tenantFolder(createContext({ userId: 'bob@example.com' })).path).not.toBe(bobs);
  });

  it('GW-05 an import with one refused value writes nothing', async () => {
    const { registry, home } = await open(policyWith(['MEMORY_FILE_PATH']));
    const entry = (value: string) => ({
      command: process.execPath,
      args: [servers.memory],
      env: { MEMORY_FILE_PATH: value },
    });
    await expect(
      registry.importServers(alice, {
        mcpServers: { notes: entry('notes.json'), stolen: entry(join(home, 'secret.key')) },
      }),
    ).rejects.toThrow(/Server "stolen" is refused: the value of MEMORY_FILE_PATH names a path/);
    expect(await repositoriesOf(registry).connections.list(alice)).toEqual([]);
  });

  it("GW-05 a symbolic link out of the tenant's folder is refused at add, and at launch when made later", async () => {
    const { registry, home } = await open(policyWith(['MEMORY_FILE_PATH']));
    const own = ensureTenantFolder(registry.tenantFolder(alice));
    const bobs = ensureTenantFolder(registry.tenantFolder(bob));
    symlinkSync(home, join(own, 'home'));
    symlinkSync(join(home, 'secret.key'), join(own, 'key'));
    symlinkSync(join(tmpdir(), `missing-${process.pid}`, 'x'), join(own, 'dangling'));
    for (const value of ['home/secret.key', './key', join(own, 'key'), './dangling'])
      expect(await refusal(registry, value), value).toBeInstanceOf(PolicyDeniedError);

    // Accepted while `data` is a plain name; then the folder gains a link to bob's folder.
    await registry.addServer(alice, memory({ MEMORY_FILE_PATH: 'data/memory.json' }));
    expect((await registry.resolveServer(alice, 'memory')).transport).toBe('stdio');
    symlinkSync(bobs, join(own, 'data'));
    await expect(registry.resolveServer(alice, 'memory')).rejects.toThrow(
      /MEMORY_FILE_PATH names a path outside this user's own folder/,
    );
  });

  it("GW-05 the operator's rules: a pattern, a fixed value, a path kept in the tenant's folder", async () => {
    const policy = policyWith({
      LOG_LEVEL: { pattern: 'debug|info' },
      SHARED_DIR: { pattern: '/srv/shared/[a-z]+|.*' },
      REGION: { value: 'eu-west-1' },
      MEMORY_FILE_PATH: { path: 'tenant', pattern: '[a-z-]+\\.json' },
      CACHE_FILE: { value: '{tenantFolder}/cache.json' },
    });
    const { registry, home } = await open(policy);
    const folder = registry.tenantFolder(alice);
    const check = (env: Record<string, string>) => () =>
      checkUserServer(policy, memory(env) as StdioServerConfig, folder);
    expect(check({ LOG_LEVEL: 'info' })).not.toThrow();
    expect(check({ LOG_LEVEL: 'trace' })).toThrow(
      /the value of LOG_LEVEL does not have the form this service allows \(debug\|info\)/,
    );
    expect(check({ LOG_LEVEL: 'info; rm -rf /' })).toThrow(/LOG_LEVEL does not have the form/);
    // A pattern may let paths outside the tenant's folder through, never the registry's own.
    expect(check({ SHARED_DIR: '/srv/shared/docs' })).not.toThrow();
    expect(check({ SHARED_DIR: join(home, 'secret.key') })).toThrow(/SHARED_DIR names a path/);
    expect(check({ REGION: 'eu-west-1' })).not.toThrow();
    expect(check({ REGION: 'us-east-1' })).toThrow(/REGION is set by this service; leave it out/);
    expect(check({ MEMORY_FILE_PATH: 'notes.json' })).not.toThrow();
    expect(check({ MEMORY_FILE_PATH: '../notes.json' })).toThrow(/does not have the form/);
    expect(check({ NODE_OPTIONS: '--import=data:,x' })).toThrow(/NODE_OPTIONS is not allowed/);

    // At launch: fixed values are set even when left out, `path` values are absolute in the
    // tenant's folder, and the server runs in that folder.
    const launched = launchUserServer(
      policy,
      memory({ MEMORY_FILE_PATH: 'notes.json', LOG_LEVEL: 'info' }) as StdioServerConfig,
      folder,
    ) as StdioServerConfig;
    const real = ensureTenantFolder(folder);
    expect(launched.env).toEqual({
      MEMORY_FILE_PATH: join(real, 'notes.json'),
      LOG_LEVEL: 'info',
      REGION: 'eu-west-1',
      CACHE_FILE: join(folder.path, 'cache.json'),
    });
    expect(launched.cwd).toBe(real);
  });

  it("GW-05 end to end: the real memory server keeps each tenant's graph in that tenant's folder", async () => {
    const { registry } = await open(policyWith({ MEMORY_FILE_PATH: { path: 'tenant' } }));
    const pool = new ConnectionPool(registry, { pingIntervalMs: 0, attempts: 1 });
    cleanups.push(() => pool.close());
    for (const ctx of [alice, bob]) {
      await registry.addServer(ctx, memory({ MEMORY_FILE_PATH: 'memory.json' }));
      await pool.callTool(ctx, 'memory', 'create_entities', {
        entities: [{ name: `${ctx.userId}-note`, entityType: 'note', observations: ['secret'] }],
      });
    }
    const own = readFileSync(join(ensureTenantFolder(registry.tenantFolder(alice)), 'memory.json'));
    const bobs = readFileSync(join(ensureTenantFolder(registry.tenantFolder(bob)), 'memory.json'));
    expect(own.toString()).toContain('alice-note');
    expect(own.toString()).not.toContain('Bob@example.com-note');
    expect(bobs.toString()).toContain('Bob@example.com-note');
    expect(bobs.toString()).not.toContain('alice-note');
  });
});
