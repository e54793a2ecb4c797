import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext, ServerNotFoundError } from '@mcp-agent/core';
import type { Registry } from '../../index.js';
import { reportSkippedPostgres, tenantDialects } from './dialects.js';
import { repositoriesOf } from '../tenant-store.js';

const alice = createContext({ userId: 'alice' });
const mallory = createContext({ userId: 'mallory', threadId: 'alice-thread' });

reportSkippedPostgres();

describe.each(tenantDialects)('TEN-01 cross-tenant walk on $label', (dialect) => {
  let registry: Registry;
  let aliceConnectionId: string;

  beforeEach(async () => {
    registry = await dialect.open();
    const record = await registry.addServer(alice, {
      id: 'github',
      transport: 'streamable-http',
      url: 'https://api.example.com/mcp',
      headers: { Authorization: 'Bearer alice-token' },
    });
    aliceConnectionId = record.id;
    await repositoriesOf(registry).catalog.replace(alice, 'github', [{ name: 'create_issue' }]);
    await registry.recordState(alice, 'github', { status: 'ready' });
    await repositoriesOf(registry).authConfigs.upsert(alice, {
      serverId: 'github',
      kind: 'oauth',
      settings: { scopes: ['repo'] },
    });
    await repositoriesOf(registry).accounts.upsert(alice, {
      serverId: 'github',
      status: 'active',
      providerUid: 'alice-uid',
    });
    await repositoriesOf(registry).accounts.putSecret(
      alice,
      'github',
      'oauth_tokens',
      'alice-oauth-tokens',
    );
    await repositoriesOf(registry).threads.activate(alice, 'alice-thread', ['github']);
  });
  afterEach(async () => {
    await registry.close();
  });

  it('every read returns nothing and every not-found looks like a missing id', async () => {
    const missing = await repositoriesOf(registry)
      .connections.get(mallory, 'does-not-exist')
      .catch((e: Error) => e);
    const foreign = await repositoriesOf(registry)
      .connections.get(mallory, 'github')
      .catch((e: Error) => e);
    expect(ServerNotFoundError.isInstance(foreign)).toBe(true);
    expect((foreign as Error).message).toBe(
      (missing as Error).message.replace('does-not-exist', 'github'),
    );

    expect(await repositoriesOf(registry).users.get(mallory)).toBeUndefined();
    expect(await repositoriesOf(registry).connections.find(mallory, 'github')).toBeUndefined();
    expect(await repositoriesOf(registry).connections.list(mallory)).toEqual([]);
    expect(await repositoriesOf(registry).catalog.list(mallory, 'github')).toEqual([]);
    expect(await repositoriesOf(registry).threads.list(mallory, 'alice-thread')).toEqual([]);
    expect(await repositoriesOf(registry).authConfigs.find(mallory, 'github')).toBeUndefined();
    expect(await repositoriesOf(registry).accounts.find(mallory, 'github')).toBeUndefined();
    expect(
      await repositoriesOf(registry).accounts.getSecret(mallory, 'github', 'oauth_tokens'),
    ).toBeUndefined();
    expect(
      await repositoriesOf(registry).secrets.get(
        mallory,
        { kind: 'connection', id: aliceConnectionId },
        'header:Authorization',
      ),
    ).toBeUndefined();
    expect(
      (
        await repositoriesOf(registry).secrets.list(mallory, {
          kind: 'connection',
          id: aliceConnectionId,
        })
      ).size,
    ).toBe(0);
    expect(await registry.activeServers(mallory)).toEqual([]);
    expect(await registry.tiers(mallory)).toEqual([]);
    expect(await registry.isAuthorized(mallory, 'github')).toBe(true); // no auth config of hers: nothing to check
    await expect(registry.resolveServer(mallory, 'github')).rejects.toBeInstanceOf(
      ServerNotFoundError,
    );
    await expect(
      repositoriesOf(registry).connections.resolveUserServer(mallory, 'github'),
    ).rejects.toBeInstanceOf(ServerNotFoundError);
    expect((await registry.availability(mallory)).servers).toEqual([]);
    expect(await repositoriesOf(registry).catalog.list(mallory, 'github')).toEqual([]);
    expect(await repositoriesOf(registry).catalog.listMany(mallory, ['github'])).toEqual(
      new Map([['github', []]]),
    );
    expect((await registry.availability(mallory)).check('github')).toMatchObject({
      code: 'not_connected',
    });
  });

  it("every write on another tenant's ids changes nothing of theirs", async () => {
    await expect(registry.removeServer(mallory, 'github')).rejects.toBeInstanceOf(
      ServerNotFoundError,
    );
    await expect(
      repositoriesOf(registry).catalog.replace(mallory, 'github', []),
    ).rejects.toBeInstanceOf(ServerNotFoundError);
    await expect(
      registry.recordState(mallory, 'github', { status: 'failed' }),
    ).rejects.toBeInstanceOf(ServerNotFoundError);
    expect(await repositoriesOf(registry).accounts.disconnect(mallory, 'github')).toBe(false);
    expect(
      await repositoriesOf(registry).secrets.remove(mallory, {
        kind: 'connection',
        id: aliceConnectionId,
      }),
    ).toBe(0);
    await repositoriesOf(registry).threads.deactivate(mallory, 'alice-thread');

    // Mallory creating her own "github" is hers alone.
    await registry.addServer(mallory, {
      id: 'github',
      transport: 'sse',
      url: 'https://evil.example/sse',
    });
    await repositoriesOf(registry).authConfigs.upsert(mallory, {
      serverId: 'github',
      kind: 'none',
    });
    await repositoriesOf(registry).accounts.upsert(mallory, {
      serverId: 'github',
      status: 'disconnected',
    });

    expect(await registry.resolveServer(alice, 'github')).toMatchObject({
      url: 'https://api.example.com/mcp',
      headers: { Authorization: 'Bearer alice-token' },
    });
    expect(await repositoriesOf(registry).connections.get(alice, 'github')).toMatchObject({
      status: 'ready',
      toolCount: 1,
    });
    expect(await repositoriesOf(registry).catalog.list(alice, 'github')).toHaveLength(1);
    expect(await repositoriesOf(registry).threads.list(alice, 'alice-thread')).toEqual(['github']);
    expect(await repositoriesOf(registry).authConfigs.find(alice, 'github')).toMatchObject({
      kind: 'oauth',
    });
    expect(await repositoriesOf(registry).accounts.find(alice, 'github')).toMatchObject({
      status: 'active',
      providerUid: 'alice-uid',
    });
    expect(await repositoriesOf(registry).accounts.getSecret(alice, 'github', 'oauth_tokens')).toBe(
      'alice-oauth-tokens',
    );
    expect(await registry.isAuthorized(alice, 'github')).toBe(true);
  });
});
