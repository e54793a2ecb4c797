import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '@mcp-agent/core';
import { loadKeyring, parseSecretKey } from './secret-key.js';

const strong = () => randomBytes(32).toString('base64');
const home = () => mkdtempSync(join(tmpdir(), 'mcp-agent-key-'));

describe('TEN-07 weak keys refuse to start', () => {
  it.each([
    ['changeme', /well-known placeholder/],
    ['not base64 !!', /not base64/],
    [randomBytes(16).toString('base64'), /16 bytes, not 32/],
    [randomBytes(48).toString('base64'), /48 bytes, not 32/],
    [Buffer.alloc(32, 7).toString('base64'), /too little entropy/],
    [Buffer.from('abababababababababababababababab').toString('base64'), /too little entropy/],
  ])('refuses %s', (value, message) => {
    expect(() => parseSecretKey(value, 'MCP_AGENT_SECRET_KEY')).toThrow(ConfigError);
    expect(() => parseSecretKey(value, 'MCP_AGENT_SECRET_KEY')).toThrow(message);
    expect(() => parseSecretKey(value, 'MCP_AGENT_SECRET_KEY')).toThrow(/randomBytes\(32\)/);
  });

  it('accepts 32 random bytes in standard or url-safe base64, and ids are stable', () => {
    const bytes = randomBytes(32);
    const a = parseSecretKey(bytes.toString('base64'), 'x');
    const b = parseSecretKey(bytes.toString('base64url'), 'x');
    expect(a.key.equals(bytes)).toBe(true);
    expect(a.id).toBe(b.id);
    expect(a.id).toMatch(/^[0-9a-f]{12}$/);
  });

  it('PostgreSQL mode refuses to start without an explicit key', () => {
    expect(() => loadKeyring({ home: home(), dialect: 'postgres', env: {} })).toThrow(
      /PostgreSQL mode needs/,
    );
  });

  it('a weak explicit key is refused in both modes, even when a key file exists', () => {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      expect(() =>
        loadKeyring({ home: home(), dialect, env: { MCP_AGENT_SECRET_KEY: 'changeme' } }),
      ).toThrow(ConfigError);
    }
  });
});

describe('loadKeyring', () => {
  it('the embedded default creates a 0600 key file once, then reuses it', () => {
    const dir = home();
    const first = loadKeyring({ home: dir, dialect: 'sqlite', env: {} });
    expect(first.createdKeyFile).toBe(join(dir, 'secret.key'));
    expect(statSync(join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    const second = loadKeyring({ home: dir, dialect: 'sqlite', env: {} });
    expect(second.createdKeyFile).toBeUndefined();
    expect(second.keyring.current.id).toBe(first.keyring.current.id);
  });

  it('refuses a key file other users can read', () => {
    const dir = home();
    writeFileSync(join(dir, 'secret.key'), strong());
    chmodSync(join(dir, 'secret.key'), 0o644);
    expect(() => loadKeyring({ home: dir, dialect: 'sqlite', env: {} })).toThrow(/chmod 600/);
  });

  it('an explicit key wins over the file; previous keys are parsed and checked', () => {
    const dir = home();
    loadKeyring({ home: dir, dialect: 'sqlite', env: {} });
    const explicit = strong();
    const old = strong();
    const { keyring } = loadKeyring({
      home: dir,
      dialect: 'sqlite',
      env: { MCP_AGENT_SECRET_KEY: explicit, MCP_AGENT_SECRET_KEY_PREVIOUS: ` ${old} ,` },
    });
    expect(keyring.current.key.toString('base64')).toBe(explicit);
    expect(keyring.previous.map((k) => k.key.toString('base64'))).toEqual([old]);
    expect(readFileSync(join(dir, 'secret.key'), 'utf8').trim()).not.toBe(explicit);
    expect(() =>
      loadKeyring({
        home: dir,
        dialect: 'sqlite',
        env: { MCP_AGENT_SECRET_KEY: explicit, MCP_AGENT_SECRET_KEY_PREVIOUS: 'short' },
      }),
    ).toThrow(/MCP_AGENT_SECRET_KEY_PREVIOUS\[0\]/);
  });
});
