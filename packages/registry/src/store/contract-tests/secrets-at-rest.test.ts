import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import {
  openRegistry,
  rotateSecrets,
  Registry,
  type Registry as RegistryType,
} from '../../index.js';
import { parseSecretKey } from '../vault/secret-key.js';
import { reportSkippedPostgres } from './dialects.js';
import { repositoriesOf } from '../tenant-store.js';

const alice = createContext({ userId: 'alice' });
// Random per run, so the grep cannot match a fixture by accident.
const token = `ghp_${randomBytes(18).toString('hex')}`;
const key = () => randomBytes(32).toString('base64');

async function storeSecrets(registry: RegistryType): Promise<void> {
  await registry.addServer(alice, {
    id: 'github',
    transport: 'streamable-http',
    url: 'https://api.example.com/mcp',
    headers: { Authorization: `Bearer ${token}` },
  });
  await registry.addServer(alice, {
    id: 'local',
    transport: 'stdio',
    command: 'node',
    env: { TOKEN: token },
  });
  await repositoriesOf(registry).accounts.putSecret(
    alice,
    'github',
    'oauth_tokens',
    JSON.stringify({ access_token: token }),
  );
}

const open: RegistryType[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

reportSkippedPostgres();

describe('TEN-03 no plaintext secret at rest', () => {
  it('the SQLite file, its WAL and shm never contain the token', async () => {
    const home = mkdtempSync(join(tmpdir(), 'mcp-agent-rest-'));
    const registry = await openRegistry({ home, env: { MCP_AGENT_SECRET_KEY: key() } });
    open.push(registry);
    await storeSecrets(registry);
    expect(await registry.resolveServer(alice, 'local')).toMatchObject({ env: { TOKEN: token } });
    const files = ['mcp-agent.db', 'mcp-agent.db-wal', 'mcp-agent.db-shm'].map((f) =>
      join(home, f),
    );
    expect(existsSync(files[1] as string)).toBe(true);
    let bytes = 0;
    for (const file of files.filter((f) => existsSync(f))) {
      const content = readFileSync(file);
      bytes += content.length;
      expect(content.includes(Buffer.from(token)), file).toBe(false);
      expect(content.includes(Buffer.from(token.slice(4))), file).toBe(false);
    }
    expect(bytes).toBeGreaterThan(0);
  });

  it.skipIf(!process.env.MCP_AGENT_TEST_DATABASE_URL)(
    'TEN-10 a pg_dump of the PostgreSQL database never contains the token',
    async () => {
      const url = process.env.MCP_AGENT_TEST_DATABASE_URL as string;
      const schema = `rest_${randomBytes(4).toString('hex')}`;
      const registry = await openRegistry({ url, schema, env: { MCP_AGENT_SECRET_KEY: key() } });
      open.push(registry);
      await storeSecrets(registry);
      const bin = process.env.MCP_AGENT_TEST_PG_BIN;
      const dump = execFileSync(bin ? join(bin, 'pg_dump') : 'pg_dump', ['--schema', schema, url], {
        maxBuffer: 64 * 1024 * 1024,
      }).toString('utf8');
      expect(dump).toContain('mcp_connections');
      expect(dump).toMatch(/v1\.[0-9a-f]{12}\./);
      expect(dump).not.toContain(token);
      expect(dump).not.toContain(token.slice(4));
    },
  );
});

describe('TEN-06 key rotation', () => {
  it('re-encrypts every secret; afterwards the old key alone is refused', async () => {
    const oldKey = key();
    const newKey = key();
    const home = mkdtempSync(join(tmpdir(), 'mcp-agent-rotate-'));
    const before = await openRegistry({ home, env: { MCP_AGENT_SECRET_KEY: oldKey } });
    await storeSecrets(before);
    await before.addServer(createContext({ userId: 'bob' }), {
      id: 'x',
      transport: 'sse',
      url: 'https://x.example/sse',
      headers: { 'X-Key': 'bob-secret' },
    });
    await before.close();

    const rotating = await openRegistry({
      home,
      env: { MCP_AGENT_SECRET_KEY: newKey, MCP_AGENT_SECRET_KEY_PREVIOUS: oldKey },
    });
    expect(await rotateSecrets(rotating.db, repositoriesOf(rotating).vault)).toEqual({
      reencrypted: 4,
      alreadyCurrent: 0,
    });
    expect(await rotateSecrets(rotating.db, repositoriesOf(rotating).vault)).toEqual({
      reencrypted: 0,
      alreadyCurrent: 4,
    });
    await rotating.close();

    const after = await openRegistry({ home, env: { MCP_AGENT_SECRET_KEY: newKey } });
    open.push(after);
    expect(await after.resolveServer(alice, 'local')).toMatchObject({ env: { TOKEN: token } });
    expect(
      await repositoriesOf(after).accounts.getSecret(alice, 'github', 'oauth_tokens'),
    ).toContain(token);

    const oldOnly = new Registry({
      db: after.db,
      keyring: { current: parseSecretKey(oldKey, 'old'), previous: [] },
    });
    await expect(oldOnly.resolveServer(alice, 'local')).rejects.toThrow(/not configured/);
  });
});
