import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { closeDefaultStack, defaultStack } from './default-stack.js';
import {
  executeMcpTask,
  getClient,
  getIndex,
  getManifest,
  initRegistry,
  isRegistered,
  OAuthManager,
  searchTools,
} from './shims.js';
import { serverFixtures } from '@mcp-agent/test-support';

const warnings: { name: string; code?: string; message: string }[] = [];
const onWarning = (warning: Error & { code?: string }) =>
  warnings.push({ name: warning.name, code: warning.code, message: warning.message });
const once = (code: string) => warnings.filter((w) => w.code === code);
// process.emitWarning delivers on a later tick.
const flush = () => new Promise((resolve) => setImmediate(resolve));

const home = mkdtempSync(join(tmpdir(), 'mcp-compat-'));

beforeAll(async () => {
  process.on('warning', onWarning);
  await expect(isRegistered('alice', 'x')).rejects.toThrow(/Call initRegistry\(\) before/);
  await initRegistry({
    home,
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
    sandbox: false,
  });
  await initRegistry({ home });
  const script = join(home, 'tools.json');
  writeFileSync(
    script,
    JSON.stringify({
      tools: [
        {
          name: 'list_issues',
          description: 'List the issues of a repository',
          inputSchema: { type: 'object' },
        },
      ],
    }),
  );
  await defaultStack().registry.addServer(createContext({ userId: 'alice' }), {
    id: 'github',
    transport: 'stdio',
    command: process.execPath,
    args: [serverFixtures.scripted, script],
  });
  await defaultStack().pool.waitForReady(createContext({ userId: 'alice' }), ['github']);
});
afterAll(async () => {
  await closeDefaultStack();
  process.off('warning', onWarning);
  rmSync(home, { recursive: true, force: true });
});

describe('compat shims: the old calls still work and each warns once', () => {
  it('initRegistry opens the process-wide stack once', () => {
    expect(once('MCPAGENT_DEP_001')).toEqual([
      {
        name: 'DeprecationWarning',
        code: 'MCPAGENT_DEP_001',
        message: expect.stringMatching(/initRegistry is deprecated: use openAgentStack/),
      },
    ]);
  });

  it('isRegistered, getClient, getManifest, getIndex, searchTools', async () => {
    for (let i = 0; i < 2; i++) {
      expect(await isRegistered('alice', 'github')).toBe(true);
      expect(await isRegistered('bob', 'github')).toBe(false);
      const client = await getClient('alice', 'github');
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['list_issues']);
      const manifest = await getManifest('alice');
      expect(manifest.servers.map((p) => p.server.id)).toEqual(['github']);
      // The names before the rename (issue 31) still read the same values.
      expect(manifest.providers.map((p) => p.provider.id)).toEqual(['github']);
      const index = await getIndex('alice');
      expect(index.map((t) => t.id)).toEqual(['github.list_issues']);
      expect(index.map((t) => [t.serverId, t.providerId])).toEqual([['github', 'github']]);
      expect((await searchTools('alice', 'list issues'))[0]?.tool_id).toBe('github.list_issues');
    }
    for (const code of [
      'MCPAGENT_DEP_002',
      'MCPAGENT_DEP_003',
      'MCPAGENT_DEP_004',
      'MCPAGENT_DEP_005',
      'MCPAGENT_DEP_006',
    ]) {
      expect(once(code)).toHaveLength(1);
    }
  });

  it('OAuthManager delegates to the OAuth service and the registry', async () => {
    const manager = new OAuthManager();
    new OAuthManager();
    expect(await manager.isAuthorized('alice', 'github')).toBe(true);
    await expect(manager.startOAuth('alice', 'github', 'http://127.0.0.1:1/cb')).rejects.toThrow(
      /runs over stdio; OAuth is for remote servers/,
    );
    await expect(manager.finalizeConnectedAccount('alice', 'nope', 'c', 's')).rejects.toThrow(
      /No server "nope"/,
    );
    await manager.disconnect('alice', 'github');
    await flush();
    expect(once('MCPAGENT_DEP_008')).toHaveLength(1);
  });

  it('executeMcpTask runs a task (and without a model endpoint says how to configure one)', async () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      const result = await executeMcpTask('list the issues', 'alice');
      expect(result).toMatchObject({
        status: 'failed',
        error: { code: 'CONFIG_INVALID', message: expect.stringMatching(/ANTHROPIC_API_KEY/) },
      });
      await executeMcpTask('again', 'alice');
      await flush();
      expect(once('MCPAGENT_DEP_007')).toHaveLength(1);
    } finally {
      if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved;
    }
  });
});
