import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@mcp-agent/core';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { MULTI_TENANT_POLICY } from '@mcp-agent/registry';
import { apiCall, initializeMcp, until } from '../api/api-test-helpers.js';
import { serveHttpApi } from '../api/serve-api.js';
import { addToken, readTokenFile, revokeToken } from './token-file.js';
import { TokenFileVerifier } from './token-file-verifier.js';

const home = mkdtempSync(join(tmpdir(), 'mcp-tokens-'));
const file = join(home, 'tokens.json');
// The real logger, its JSON lines kept here.
const logged: { level: number; msg: string }[] = [];
const logger = createLogger({
  level: 'info',
  destination: { write: (line: string) => logged.push(JSON.parse(line) as never) },
});
let stack: AgentStack;
let verifier: TokenFileVerifier;
let api: Awaited<ReturnType<typeof serveHttpApi>>;
let alice: { token: string; id: string };

// How long `check` takes to hold, polling every 20 ms; fails past 5 s.
async function timeUntil(check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > 5_000) throw new Error('not within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}

beforeAll(async () => {
  const added = addToken(file, 'alice');
  alice = { token: added.token, id: added.entry.id };
  stack = await openAgentStack({
    home,
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
    userServers: MULTI_TENANT_POLICY,
    sandbox: false,
  });
  verifier = TokenFileVerifier.open(file, { logger });
  api = await serveHttpApi({ stack, port: 0, verifier, logger });
});
afterAll(async () => {
  verifier?.close();
  await api?.close();
  await stack?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('the token file', () => {
  it('holds SHA-256 digests, owner-readable only; the token is shown once and never stored', () => {
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(alice.token);
    expect(alice.token).toMatch(/^mat_[\w-]{43}$/);
    expect(readTokenFile(file)).toMatchObject({
      plain: false,
      entries: [{ id: alice.id, user: 'alice', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }],
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('AUTH-16 a tenant added while the server runs gets in within 2 s; a revoked token is refused within 2 s and its open session and stream are closed', async () => {
    // Alice has a gateway session with an open GET stream (what a client listens on).
    const headers = {
      authorization: `Bearer ${alice.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    };
    const initialized = await initializeMcp(api.url, headers);
    expect(initialized.status).toBe(200);
    await initialized.text();
    const session = {
      ...headers,
      'mcp-session-id': initialized.headers.get('mcp-session-id') ?? '',
    };
    await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: session,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    const stream = await fetch(`${api.url}/mcp`, { headers: session });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(api.gateway.sessions).toBe(1);

    const bob = addToken(file, 'bob');
    const bobIn = await timeUntil(
      async () => (await apiCall(api.url, bob.token, 'GET', '/v1/servers')).status === 200,
    );
    expect(bobIn).toBeLessThan(2_000);

    revokeToken(file, alice.id);
    const refused = await timeUntil(
      async () => (await apiCall(api.url, alice.token, 'GET', '/v1/servers')).status === 401,
    );
    expect(refused).toBeLessThan(2_000);
    await until(() => api.gateway.sessions === 0, 2_000);
    // The stream ends: its reader reaches the end instead of waiting for events for ever.
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    for (;;) if ((await reader.read()).done) break;
    const after = await apiCall(api.url, alice.token, 'GET', '/v1/servers');
    expect(after.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    expect(JSON.stringify(await after.json())).toMatch(/wrong, or revoked/);
    // Bob is untouched.
    expect((await apiCall(api.url, bob.token, 'GET', '/v1/servers')).status).toBe(200);
  });

  it('reads the old plain format with a warning; adding a token rewrites it with digests, the old token still valid', async () => {
    const legacy = join(home, 'legacy.json');
    const plain = `plain-${randomBytes(12).toString('hex')}`;
    writeFileSync(legacy, JSON.stringify({ tokens: { [plain]: 'carol' } }));
    const old = TokenFileVerifier.open(legacy, { logger });
    try {
      expect(await old.verify(plain)).toBe('carol');
      expect(logged).toContainEqual(
        expect.objectContaining({ level: 40, msg: expect.stringMatching(/plain tokens/) }),
      );
      addToken(legacy, 'dave');
      expect(readFileSync(legacy, 'utf8')).not.toContain(plain);
      expect(readTokenFile(legacy).entries.map((e) => e.user)).toEqual(['carol', 'dave']);
      await until(() => old.size === 2, 2_000);
      expect(await old.verify(plain)).toBe('carol');
    } finally {
      old.close();
    }
  });

  it('keeps the last good list when the file is caught half-edited, and says so', async () => {
    const edited = join(home, 'edited.json');
    const { token } = addToken(edited, 'erin');
    const watched = TokenFileVerifier.open(edited, { logger });
    try {
      writeFileSync(edited, '{"version": 2, "tokens": [');
      await until(() => logged.some((l) => l.msg === 'token file not reloaded'), 2_000);
      expect(await watched.verify(token)).toBe('erin');
    } finally {
      watched.close();
    }
  });

  it('refuses a malformed file, a short plain token and an unknown id with what to do', () => {
    const bad = join(home, 'bad.json');
    writeFileSync(bad, JSON.stringify({ tokens: [{ user: 'x', sha256: 'nope' }] }));
    expect(() => readTokenFile(bad)).toThrow(/valid "sha256"/);
    writeFileSync(bad, JSON.stringify({ tokens: { short: 'x' } }));
    expect(() => readTokenFile(bad)).toThrow(/gateway tokens must be at least 16 characters/);
    expect(() => readTokenFile(join(home, 'missing.json'))).toThrow(/mcp-agent tokens add/);
    expect(() => revokeToken(file, 'tok_000000000000')).toThrow(/tokens list/);
    expect(() => addToken(file, 'two words')).toThrow(/without spaces/);
  });

  it('AUTH-22 a token file whose entry names a look-alike user is refused when read, naming the entry and why; addToken refuses one too', () => {
    const lookAlikes = [
      'alice ',
      ' alice',
      'alice\u00a0',
      'alice\u3000',
      'alice\ufeff',
      'jose\u0301',
      '\u212Bngstr\u00f6m',
      'A\u030Angstr\u00f6m',
    ];
    const bad = join(home, 'look-alike.json');
    for (const user of lookAlikes) {
      const sha256 = (n: number) => String(n).repeat(64);
      writeFileSync(
        bad,
        JSON.stringify({
          version: 2,
          tokens: [
            { id: 'tok_good', user: 'alice', sha256: sha256(1) },
            { id: 'tok_lookalike', user, sha256: sha256(2) },
          ],
        }),
      );
      expect(() => readTokenFile(bad)).toThrow(
        /has an entry \(tok_lookalike\) whose user .* is not a valid user id: it (has whitespace|is not in Unicode normal form C)/,
      );
      expect(() => TokenFileVerifier.open(bad)).toThrow(/tok_lookalike/);
      // The older plain format: the entry is named by its id, never by its token.
      const token = `plain-${'p'.repeat(24)}`;
      writeFileSync(bad, JSON.stringify({ tokens: { [token]: user } }));
      expect(() => readTokenFile(bad)).toThrow(/has an entry \(tok_[0-9a-f]{12}\) whose user/);
      expect(() => readTokenFile(bad)).not.toThrow(token);
      expect(() => addToken(bad, user)).toThrow(/is not a valid user id/);
    }
    // The canonical users are taken as they are.
    writeFileSync(
      bad,
      JSON.stringify({
        tokens: { ['q'.repeat(32)]: 'jos\u00e9', ['r'.repeat(32)]: '\u00c5ngstr\u00f6m' },
      }),
    );
    expect(readTokenFile(bad).entries.map((entry) => entry.user)).toEqual([
      'jos\u00e9',
      '\u00c5ngstr\u00f6m',
    ]);
  });
});
