import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import type { Registry } from './registry.js';
import { createTestRegistry } from './testing/index.js';
import { MULTI_TENANT_POLICY } from './store/availability/user-server-policy.js';
import { repositoriesOf } from './store/tenant-store.js';

const alice = createContext({ userId: 'alice' });
const bob = createContext({ userId: 'bob' });
let registry: Registry;

beforeEach(async () => {
  registry = await createTestRegistry({
    appServers: [
      {
        id: 'docs',
        transport: 'streamable-http',
        url: 'https://docs.example/mcp',
        headers: {},
        enabled: true,
      },
    ],
  });
});
afterEach(async () => {
  await registry.close();
});

describe('Registry: enable, disable, partial imports', () => {
  it('a disabled server stays stored, leaves every request, and comes back when enabled', async () => {
    await registry.addServer(alice, { id: 'memory', transport: 'stdio', command: 'npx' });
    const updated: string[] = [];
    registry.events.on('server-updated', (change) => updated.push(change.serverId));
    await registry.setServerEnabled(alice, 'memory', false);
    expect((await registry.availability(alice)).check('memory')).toMatchObject({
      code: 'disabled',
    });
    expect(await repositoriesOf(registry).connections.get(alice, 'memory')).toMatchObject({
      enabled: false,
      config: { enabled: false },
    });
    await registry.setServerEnabled(alice, 'memory', true);
    expect((await registry.availability(alice)).active.map((s) => s.id)).toContain('memory');
    expect(updated).toEqual(['memory', 'memory']);
  });

  it("the operator's app servers and another tenant's servers cannot be switched", async () => {
    await expect(registry.setServerEnabled(alice, 'docs', false)).rejects.toMatchObject({
      code: 'POLICY_DENIED',
    });
    await registry.addServer(alice, { id: 'mine', transport: 'stdio', command: 'npx' });
    await expect(registry.setServerEnabled(bob, 'mine', false)).rejects.toMatchObject({
      code: 'SERVER_NOT_FOUND',
    });
  });

  it('partial imports write the valid and allowed servers and list the rest', async () => {
    const file = {
      mcpServers: {
        ok: { url: 'https://ok.example/mcp' },
        bad: { type: 'websocket', url: 'wss://x' },
        local: { command: 'npx', args: ['-y', 'x'] },
      },
    };
    const strict = await createTestRegistry({ userServers: MULTI_TENANT_POLICY });
    try {
      await expect(strict.importServers(alice, file, { env: {} })).rejects.toThrow(/bad\.type/);
      const result = await strict.importServers(alice, file, { env: {}, partial: true });
      expect(result.imported).toEqual(['ok']);
      expect(result.rejected?.map((r) => r.id)).toEqual(['bad', 'local']);
      expect(result.rejected?.[1]?.issues[0]?.message).toMatch(/stdio/);
      expect((await repositoriesOf(strict).connections.list(alice)).map((r) => r.serverId)).toEqual(
        ['ok'],
      );
    } finally {
      await strict.close();
    }
  });
});
