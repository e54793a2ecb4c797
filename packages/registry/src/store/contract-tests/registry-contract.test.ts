import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ConfigError,
  createContext,
  ServerNotFoundError,
  type ServerConfig,
} from '@mcp-agent/core';
import type { Registry } from '../../index.js';
import { dialects, reportSkippedPostgres } from './dialects.js';
import {
  alice,
  appDocs,
  appEverything,
  githubServer,
  memoryServer,
} from './registry-contract-test-helpers.js';
import { repositoriesOf } from '../tenant-store.js';

reportSkippedPostgres();

describe.each(dialects)('registry contract on $name', (dialect) => {
  let registry: Registry;
  beforeEach(async () => {
    registry = await dialect.open({ appServers: [appEverything, appDocs] });
  });
  afterEach(async () => {
    await registry.close();
  });

  describe('users and connections', () => {
    it('an empty configuration is valid: no servers, nothing hard-coded', async () => {
      const empty = await dialect.open();
      try {
        expect(await empty.activeServers(alice)).toEqual([]);
        expect((await empty.availability(alice)).servers).toEqual([]);
      } finally {
        await empty.close();
      }
    });

    it('upserts a user server, keeping env and header values out of the config column', async () => {
      const record = await registry.addServer(alice, memoryServer);
      expect(record).toMatchObject({
        serverId: 'memory',
        scope: 'user',
        status: 'pending',
        toolCount: null,
      });
      expect(record.config).toEqual({
        id: 'memory',
        transport: 'stdio',
        command: 'node',
        args: ['memory.js'],
        enabled: true,
        envNames: ['MEMORY_FILE_PATH', 'API_TOKEN'],
      });
      const raw = await registry.db
        .selectFrom('mcp_connections')
        .select('config')
        .executeTakeFirstOrThrow();
      expect(raw.config).not.toContain('memory-token-value-2');
      expect(await registry.resolveServer(alice, 'memory')).toMatchObject({
        env: { MEMORY_FILE_PATH: '/tmp/memory.json', API_TOKEN: 'memory-token-value-2' },
      });
      expect(await repositoriesOf(registry).users.get(alice)).toMatchObject({ id: 'alice' });
    });

    it('an update replaces the definition and its secrets, and resets readiness', async () => {
      await registry.addServer(alice, githubServer);
      await registry.recordState(alice, 'github', { status: 'ready', toolCount: 3 });
      await registry.addServer(alice, { ...githubServer, headers: { 'X-Key': 'new-value' } });
      const record = await repositoriesOf(registry).connections.get(alice, 'github');
      expect(record.status).toBe('pending');
      expect((await registry.resolveServer(alice, 'github')) as { headers: object }).toMatchObject({
        headers: { 'X-Key': 'new-value' },
      });
      expect(
        ((await registry.resolveServer(alice, 'github')) as { headers: object }).headers,
      ).not.toHaveProperty('Authorization');
    });

    it.each([
      [{ ...githubServer, url: 'not a url' }, 'url'],
      [{ ...memoryServer, command: '' }, 'command'],
      [{ ...memoryServer, transport: 'telepathy' }, 'transport'],
      [{ ...memoryServer, id: 'my.server' }, 'id'],
    ])(
      'invalid config %# is a ConfigError naming %s, and nothing is written',
      async (input, path) => {
        const error = await registry.addServer(alice, input).catch((e: unknown) => e);
        expect(ConfigError.isInstance(error)).toBe(true);
        expect((error as ConfigError).details.issues).toEqual(
          expect.arrayContaining([expect.objectContaining({ path })]),
        );
        expect(await repositoriesOf(registry).connections.list(alice)).toEqual([]);
        expect(await registry.db.selectFrom('secrets').selectAll().execute()).toEqual([]);
      },
    );

    it('concurrent upserts of the same connection leave one row', async () => {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          registry.addServer(alice, { ...memoryServer, args: [`m${i}.js`] }),
        ),
      );
      const rows = await registry.db.selectFrom('mcp_connections').selectAll().execute();
      expect(rows).toHaveLength(1);
      const secrets = await registry.db.selectFrom('secrets').selectAll().execute();
      expect(secrets).toHaveLength(2);
    });

    it('remove deletes the server, its secrets and catalog, and a second remove is not-found', async () => {
      await registry.addServer(alice, memoryServer);
      await repositoriesOf(registry).catalog.replace(alice, 'memory', [
        { name: 'read_graph', inputSchema: { type: 'object' } },
      ]);
      await registry.removeServer(alice, 'memory');
      expect(await repositoriesOf(registry).connections.find(alice, 'memory')).toBeUndefined();
      expect(await registry.db.selectFrom('secrets').selectAll().execute()).toEqual([]);
      expect(await registry.db.selectFrom('tool_catalog').selectAll().execute()).toEqual([]);
      await expect(registry.removeServer(alice, 'memory')).rejects.toBeInstanceOf(
        ServerNotFoundError,
      );
    });

    it('emits registered, updated, removed and state-changed events', async () => {
      const seen: string[] = [];
      for (const event of [
        'server-registered',
        'server-updated',
        'server-removed',
        'state-changed',
      ] as const) {
        registry.events.on(event, (change: { serverId: string }) =>
          seen.push(`${event}:${change.serverId}`),
        );
      }
      await registry.addServer(alice, memoryServer);
      await registry.addServer(alice, memoryServer);
      await registry.recordState(alice, 'memory', { status: 'connecting' });
      await registry.removeServer(alice, 'memory');
      expect(seen).toEqual([
        'server-registered:memory',
        'server-updated:memory',
        'state-changed:memory',
        'server-removed:memory',
      ]);
    });
  });

  describe('config tiers', () => {
    it('app servers are visible to every user; user servers only to their owner', async () => {
      const bob = createContext({ userId: 'bob' });
      await registry.addServer(alice, memoryServer);
      expect((await registry.activeServers(alice)).map((s) => [s.id, s.scope])).toEqual([
        ['docs', 'app'],
        ['everything', 'app'],
        ['memory', 'user'],
      ]);
      expect((await registry.activeServers(bob)).map((s) => s.id)).toEqual(['docs', 'everything']);
    });

    it('a user server overrides the app server of the same id, for that user only', async () => {
      const bob = createContext({ userId: 'bob' });
      await registry.addServer(alice, { ...memoryServer, id: 'everything' });
      expect((await registry.activeServers(alice)).find((s) => s.id === 'everything')?.scope).toBe(
        'user',
      );
      expect(await registry.resolveServer(alice, 'everything')).toMatchObject({
        args: ['memory.js'],
      });
      expect(await registry.resolveServer(bob, 'everything')).toMatchObject({
        args: ['everything.js'],
      });
      await registry.removeServer(alice, 'everything');
      expect(await registry.resolveServer(alice, 'everything')).toMatchObject({
        args: ['everything.js'],
      });
    });

    it('thread activation narrows to the activated subset; a thread without any uses all', async () => {
      await registry.addServer(alice, memoryServer);
      await repositoriesOf(registry).threads.activate(alice, 'thread-1', ['memory', 'docs']);
      const inThread = createContext({ userId: 'alice', threadId: 'thread-1' });
      expect((await registry.activeServers(inThread)).map((s) => s.id)).toEqual(['docs', 'memory']);
      expect(
        (await registry.activeServers(alice, { threadId: 'thread-2' })).map((s) => s.id),
      ).toHaveLength(3);
      await repositoriesOf(registry).threads.deactivate(alice, 'thread-1', ['docs']);
      expect(await repositoriesOf(registry).threads.list(alice, 'thread-1')).toEqual(['memory']);
      await repositoriesOf(registry).threads.deactivate(alice, 'thread-1');
      expect(await repositoriesOf(registry).threads.list(alice, 'thread-1')).toEqual([]);
    });

    it('the call-level allow-list filters last, and disabled servers are left out', async () => {
      await registry.addServer(alice, { ...memoryServer, enabled: false });
      expect(
        (await registry.activeServers(alice, { allow: ['docs', 'memory', 'nope'] })).map(
          (s) => s.id,
        ),
      ).toEqual(['docs']);
      expect(
        (await registry.activeServers(alice, { includeDisabled: true })).map((s) => s.id),
      ).toContain('memory');
    });

    it('app servers with duplicate ids or invalid definitions are refused', async () => {
      await expect(dialect.open({ appServers: [appDocs, appDocs] })).rejects.toThrow(
        /defined twice/,
      );
      await expect(
        dialect.open({ appServers: [{ ...appDocs, url: 'nope' } as ServerConfig] }),
      ).rejects.toBeInstanceOf(ConfigError);
    });

    it('readiness of an app server is recorded per user in an app-scope row', async () => {
      const record = await registry.recordState(alice, 'docs', {
        status: 'failed',
        lastError: 'HTTP 502',
        attempts: 3,
      });
      expect(record).toMatchObject({
        scope: 'app',
        status: 'failed',
        lastError: 'HTTP 502',
        attempts: 3,
      });
      const bob = createContext({ userId: 'bob' });
      expect((await registry.activeServers(bob)).find((s) => s.id === 'docs')?.status).toBe(
        'pending',
      );
      await expect(
        registry.recordState(alice, 'unknown', { status: 'ready' }),
      ).rejects.toBeInstanceOf(ServerNotFoundError);
    });
  });

  describe('import', () => {
    const file = JSON.stringify({
      mcpServers: {
        files: { command: 'node', args: ['fs.js', '/tmp'], env: { FS_TOKEN: '${FS_TOKEN}' } },
        linear: {
          url: 'https://mcp.linear.example/mcp',
          headers: { Authorization: 'Bearer ${LINEAR}' },
          autoApprove: [],
        },
      },
    });

    it('imports every server as user servers, secrets into the vault', async () => {
      const result = await registry.importServers(alice, file, {
        env: { FS_TOKEN: 'fs-secret-3', LINEAR: 'linear-secret-4' },
      });
      expect(result).toEqual({
        imported: ['files', 'linear'],
        ignored: ['mcpServers.linear.autoApprove'],
      });
      expect(await registry.resolveServer(alice, 'linear')).toMatchObject({
        transport: 'auto',
        headers: { Authorization: 'Bearer linear-secret-4' },
      });
      const configs = await registry.db.selectFrom('mcp_connections').select('config').execute();
      expect(JSON.stringify(configs)).not.toMatch(/fs-secret-3|linear-secret-4/);
    });

    it('a file with one bad server writes nothing', async () => {
      const bad = JSON.stringify({
        mcpServers: { ok: { command: 'node' }, 'bad.id': { command: 'node' } },
      });
      await expect(registry.importServers(alice, bad, { env: {} })).rejects.toBeInstanceOf(
        ConfigError,
      );
      expect(await repositoriesOf(registry).connections.list(alice)).toEqual([]);
    });
  });

  describe('accounts, auth configs and authorisation', () => {
    it('isAuthorized: true without OAuth; with OAuth only for an active account with tokens', async () => {
      await registry.addServer(alice, githubServer);
      expect(await registry.isAuthorized(alice, 'github')).toBe(true);
      await repositoriesOf(registry).authConfigs.upsert(alice, {
        serverId: 'github',
        kind: 'oauth',
        settings: { scopes: ['repo'] },
      });
      expect(await repositoriesOf(registry).authConfigs.find(alice, 'github')).toMatchObject({
        kind: 'oauth',
        settings: { scopes: ['repo'] },
      });
      expect(await registry.isAuthorized(alice, 'github')).toBe(false);
      await repositoriesOf(registry).accounts.upsert(alice, {
        serverId: 'github',
        status: 'active',
        providerUid: 'u-42',
      });
      expect(await registry.isAuthorized(alice, 'github')).toBe(false);
      await repositoriesOf(registry).accounts.putSecret(
        alice,
        'github',
        'oauth_tokens',
        '{"access_token":"at-5"}',
      );
      expect(await registry.isAuthorized(alice, 'github')).toBe(true);
      expect(
        await repositoriesOf(registry).accounts.getSecret(alice, 'github', 'oauth_tokens'),
      ).toBe('{"access_token":"at-5"}');
    });

    it('disconnect deletes the tokens and marks the account disconnected', async () => {
      const { accounts, authConfigs } = repositoriesOf(registry);
      await authConfigs.upsert(alice, { serverId: 'github', kind: 'oauth' });
      await accounts.upsert(alice, { serverId: 'github', status: 'active' });
      await accounts.putSecret(alice, 'github', 'oauth_tokens', 'tokens');
      expect(await accounts.disconnect(alice, 'github')).toBe(true);
      expect(await accounts.getSecret(alice, 'github', 'oauth_tokens')).toBeUndefined();
      expect(await accounts.find(alice, 'github')).toMatchObject({ status: 'disconnected' });
      expect(await registry.isAuthorized(alice, 'github')).toBe(false);
      expect(await accounts.disconnect(alice, 'gitlab')).toBe(false);
    });
  });
});
