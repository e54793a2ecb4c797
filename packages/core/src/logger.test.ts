import { describe, expect, it } from 'vitest';
import { ConfigError } from './errors.js';
import { createLogger, REDACTED, redactSecrets } from './logger.js';
import { createMemoryLogger } from './testing/index.js';

describe('logger redaction', () => {
  it('redacts secret-looking keys at any depth', () => {
    const memory = createMemoryLogger();
    memory.logger.info(
      {
        server: { headers: { Authorization: 'Bearer abc', 'x-api-key': 'k' }, env: { A: '1' } },
        oauth: { access_token: 'at', refresh_token: 'rt', clientSecret: 'cs' },
        password: 'p',
        user: 'alice',
      },
      'connecting',
    );
    const [line] = memory.lines();
    expect(line).toMatchObject({
      server: { headers: { Authorization: REDACTED, 'x-api-key': REDACTED }, env: REDACTED },
      oauth: { access_token: REDACTED, refresh_token: REDACTED, clientSecret: REDACTED },
      password: REDACTED,
      user: 'alice',
    });
  });

  it('redacts secret-shaped values under innocent keys and in the message', () => {
    const memory = createMemoryLogger();
    const key = `sk-${'a1'.repeat(12)}`;
    const github = `ghp_${'Z'.repeat(36)}`;
    memory.logger.warn({ note: `used ${key} and ${github}` }, `header was Bearer abcdefghijk`);
    const text = memory.text();
    expect(text).not.toContain(key);
    expect(text).not.toContain(github);
    expect(text).not.toContain('abcdefghijk');
    expect(text).toContain(REDACTED);
  });

  it('redacts errors and private keys, and survives cycles in depth', () => {
    const error = new Error('failed with AKIAABCDEFGHIJKLMNOP');
    expect(redactSecrets({ error })).toEqual({
      error: { type: 'Error', message: `failed with ${REDACTED}` },
    });
    expect(redactSecrets('-----BEGIN RSA PRIVATE KEY-----')).toBe(REDACTED);
    const deep: Record<string, unknown> = {};
    let cursor = deep;
    for (let i = 0; i < 20; i++) cursor = (cursor.next = {}) as Record<string, unknown>;
    expect(() => redactSecrets(deep)).not.toThrow();
  });
});

describe('logger level', () => {
  const destination = { write: () => undefined };
  it('refuses an unknown level with a ConfigError that names where it came from', () => {
    const previous = process.env.MCP_AGENT_LOG_LEVEL;
    try {
      process.env.MCP_AGENT_LOG_LEVEL = 'loud';
      expect(() => createLogger()).toThrow(ConfigError);
      expect(() => createLogger()).toThrow(/MCP_AGENT_LOG_LEVEL is "loud"; use one of trace,/);
      // An explicit level wins over the environment, and is checked the same way.
      expect(() => createLogger({ level: 'warn', destination })).not.toThrow();
      expect(() => createLogger({ level: 'chatty' as 'warn' })).toThrow(
        /The log level is "chatty"/,
      );
      process.env.MCP_AGENT_LOG_LEVEL = '';
      expect(() => createLogger({ destination })).not.toThrow();
    } finally {
      if (previous === undefined) delete process.env.MCP_AGENT_LOG_LEVEL;
      else process.env.MCP_AGENT_LOG_LEVEL = previous;
    }
  });
});
