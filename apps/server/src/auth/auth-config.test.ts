import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '@mcp-agent/core';
import { readAuthConfig } from './auth-config.js';
import { JwtVerifier } from './jwt-verifier.js';
import { addToken } from './token-file.js';
import { TokenFileVerifier } from './token-file-verifier.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-auth-config-'));
const file = join(dir, 'tokens.json');
const { token } = addToken(file, 'alice');
const context = { logger: silentLogger };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('how main.js signs callers in', () => {
  it('needs a token file or an issuer, and says which flags and variables set them', () => {
    expect(() => readAuthConfig({}, {}, context)).toThrow(
      /--tokens <file> \(MCP_AGENT_TOKENS_FILE.*--issuer <url> \(MCP_AGENT_OIDC_ISSUER\)/,
    );
  });

  it('reads static tokens from --tokens or MCP_AGENT_TOKENS_FILE, re-read on change', async () => {
    const config = readAuthConfig({}, { MCP_AGENT_TOKENS_FILE: file }, context);
    try {
      expect(config.verifier).toBeInstanceOf(TokenFileVerifier);
      expect(await config.verifier.verify(token)).toBe('alice');
      expect(config.description).toBe(`static tokens from ${file} (1)`);
    } finally {
      config.close();
    }
  });

  it('takes the audience from --audience or the public URL, and refuses an issuer without either', () => {
    expect(() => readAuthConfig({ issuer: 'https://login.example.com' }, {}, context)).toThrow(
      /--public-url https:\/\/… \(MCP_AGENT_PUBLIC_URL\), or --audience/,
    );
    const derived = readAuthConfig(
      {},
      {
        MCP_AGENT_OIDC_ISSUER: 'https://login.example.com',
        MCP_AGENT_OIDC_REQUIRED_SCOPES: 'mcp:tools, mcp:tasks',
      },
      { ...context, publicUrl: 'https://agent.example.com' },
    );
    expect(derived.verifier).toBeInstanceOf(JwtVerifier);
    expect(derived.verifier.authorizationServers).toEqual(['https://login.example.com']);
    expect(derived.verifier.requiredScopes).toEqual(['mcp:tools', 'mcp:tasks']);
    expect(() =>
      readAuthConfig(
        { issuer: 'https://login.example.com', audience: 'api://agent', 'clock-skew': '30s' },
        {},
        context,
      ),
    ).toThrow(/--clock-skew \(MCP_AGENT_OIDC_CLOCK_SKEW\) is a whole number of seconds/);
    expect(() =>
      readAuthConfig(
        { issuer: 'https://login.example.com', audience: 'api://agent' },
        { MCP_AGENT_OIDC_MAX_TOKEN_AGE: '0' },
        context,
      ),
    ).toThrow(/--max-token-age \(MCP_AGENT_OIDC_MAX_TOKEN_AGE\) is a positive whole number/);
    expect(() =>
      readAuthConfig({ issuer: 'http://login.example.com', audience: 'api://agent' }, {}, context),
    ).toThrow(/must be an https URL/);
    expect(() =>
      readAuthConfig(
        { issuer: 'https://login.example.com', audience: 'api://agent', algorithms: 'RS256,HS256' },
        {},
        context,
      ),
    ).toThrow(/asymmetric.*refused: HS256/);
  });

  it('with both, a static token is looked up in the file and a JWT-shaped one goes to the issuer', async () => {
    const both = readAuthConfig(
      { tokens: file, issuer: 'https://127.0.0.1:9', audience: 'https://agent.example.com' },
      {},
      context,
    );
    try {
      expect(await both.verifier.verify(token)).toBe('alice');
      expect(await both.verifier.verify('not-a-known-token-at-all')).toBeUndefined();
      // The issuer is loopback, refused without MCP_AGENT_OAUTH_ALLOW_PRIVATE=1: a JWT reached it.
      await expect(both.verifier.verify('a.b.c')).rejects.toThrow(/private or reserved/);
      expect(both.verifier.authorizationServers).toEqual(['https://127.0.0.1:9']);
      expect(typeof both.verifier.onRevoke).toBe('function');
    } finally {
      both.close();
    }
  });
});
