import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  base64url,
  exportSPKI,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWTPayload,
} from 'jose';
import { createContext, createLogger } from '@mcp-agent/core';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { initializeMcp } from '../api/api-test-helpers.js';
import { serveHttpApi } from '../api/serve-api.js';
import { jwkOf, rsaKey, startIssuer, type TestIssuer } from './issuer-test-helpers.js';
import { JwtVerifier, protectedResourceAudiences } from './jwt-verifier.js';
import { freePort, serverFixtures } from '@mcp-agent/test-support';

const home = mkdtempSync(join(tmpdir(), 'mcp-jwt-'));
// The real logger, its JSON lines kept here.
const logged: { level: number; msg: string }[] = [];
const logger = createLogger({
  level: 'info',
  destination: { write: (line: string) => logged.push(JSON.parse(line) as never) },
});
let issuer: TestIssuer;
let stack: AgentStack;
let api: Awaited<ReturnType<typeof serveHttpApi>>;
let base: string;
let key: { privateKey: CryptoKey; publicKey: CryptoKey; kid: string };

// A token as the issuer makes it, with `change` applied to its claims.
function sign(
  claims: JWTPayload = {},
  signer: { privateKey: CryptoKey; kid: string } = key,
  alg = 'RS256',
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: issuer.url,
    aud: `${base}/mcp`,
    sub: 'alice',
    scope: 'mcp:tools openid',
    iat: now,
    exp: now + 300,
    ...claims,
  })
    .setProtectedHeader({ alg, kid: signer.kid })
    .sign(signer.privateKey);
}

// A GET of `path` with `token`; for `/mcp`, the gateway's initialize.
const request = (token: string | undefined, path = '/v1/servers') => {
  const headers: Record<string, string> =
    token === undefined ? {} : { authorization: `Bearer ${token}` };
  return path === '/mcp' ? initializeMcp(base, headers) : fetch(`${base}${path}`, { headers });
};

// The fields of a `WWW-Authenticate: Bearer a="…", b="…"` header.
function challenge(response: Response): Record<string, string> {
  const header = response.headers.get('www-authenticate') ?? '';
  expect(header).toMatch(/^Bearer /);
  return Object.fromEntries([...header.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

async function expectInvalidToken(token: string, reason: RegExp, path = '/v1/servers') {
  const response = await request(token, path);
  expect(response.status).toBe(401);
  const fields = challenge(response);
  expect(fields.error).toBe('invalid_token');
  expect(fields.error_description).toMatch(reason);
  expect(fields.resource_metadata).toBe(
    `${base}/.well-known/oauth-protected-resource${path === '/mcp' ? '/mcp' : ''}`,
  );
  const body = JSON.stringify(await response.json());
  expect(body).toMatch(reason);
  // The token is never echoed back nor logged; the reason is.
  expect(body).not.toContain(token);
  expect(JSON.stringify(logged)).not.toContain(token.split('.')[2] || token);
}

beforeAll(async () => {
  issuer = await startIssuer();
  key = await rsaKey('key-1');
  issuer.published = [await jwkOf(key)];
  const script = join(home, 'tools.json');
  writeFileSync(
    script,
    JSON.stringify({ tools: [{ name: 'whoami', description: 'Who am I', inputSchema: {} }] }),
  );
  stack = await openAgentStack({
    home,
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
    userServers: {
      stdio: [{ command: process.execPath, args: [serverFixtures.scripted, script] }],
      remote: 'public',
    },
    sandbox: false,
  });
  await stack.registry.addServer(createContext({ userId: 'alice' }), {
    id: 'alice-tools',
    transport: 'stdio',
    command: process.execPath,
    args: [serverFixtures.scripted, script],
  });
  // The audience is this server's resource URI, so the port is chosen before the server starts.
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  api = await serveHttpApi({
    stack,
    port,
    publicUrl: base,
    logger,
    verifier: new JwtVerifier({
      issuer: issuer.url,
      audience: protectedResourceAudiences(base),
      requiredScopes: ['mcp:tools'],
      // Short, so that the rotation cases need not wait 5 s; the window is what they test.
      jwksCooldownMs: 1_000,
      allowPrivateNetwork: true,
      logger,
    }),
  });
});
afterAll(async () => {
  await api?.close();
  await stack?.close();
  await issuer?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('JWT access tokens from the operator issuer', () => {
  it('accepts a valid token on /v1 and /mcp as the user of its claim, after one discovery and one JWKS fetch', async () => {
    const token = await sign();
    const servers = await request(token);
    expect(servers.status).toBe(200);
    const listed = (await servers.json()) as { servers: { id: string }[] };
    expect(listed.servers.map((s) => s.id)).toEqual(['alice-tools']);
    const bob = (await (await request(await sign({ sub: 'bob' }))).json()) as {
      servers: unknown[];
    };
    expect(bob.servers).toEqual([]);
    expect((await request(token, '/mcp')).status).toBe(200);
    // The base URL is a resource too (the HTTP API), with or without its trailing slash.
    expect((await request(await sign({ aud: `${base}/` }))).status).toBe(200);
    expect(issuer.fetches).toEqual({ jwks: 1, metadata: 1 });
  });

  it('AUTH-12 refuses alg none, a tampered payload, an expired token and a wrong issuer or audience with 401 invalid_token', async () => {
    const valid = await sign();
    const [header, payload, signature] = valid.split('.') as [string, string, string];
    const unsigned = `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${payload}.`;
    await expectInvalidToken(unsigned, /not one this server accepts|not a well-formed/);
    const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload))) as JWTPayload;
    const tampered = base64url.encode(JSON.stringify({ ...claims, sub: 'bob' }));
    await expectInvalidToken(`${header}.${tampered}.${signature}`, /signature does not verify/);
    const now = Math.floor(Date.now() / 1000);
    await expectInvalidToken(await sign({ iat: now - 900, exp: now - 600 }), /expired/);
    await expectInvalidToken(await sign({ iss: 'https://evil.example' }), /another issuer/);
    await expectInvalidToken(
      await sign({ aud: 'https://other-resource.example/mcp' }),
      /another resource/,
    );
    await expectInvalidToken(await sign({ exp: undefined }), /no expiry/);
    // The gateway gives the same answer, with its own metadata URL.
    await expectInvalidToken(await sign({ iss: 'https://evil.example' }), /another issuer/, '/mcp');
    // The operator sees why each was refused.
    expect(JSON.stringify(logged)).toMatch(/it has expired.*another issuer/s);
  });

  it('AUTH-17 refuses a not-yet-valid token, an RS256 key used as an HS256 secret and an algorithm outside the allow-list', async () => {
    const now = Math.floor(Date.now() / 1000);
    // Within the 30 s skew a token is accepted; past it, refused.
    expect((await request(await sign({ nbf: now + 10 }))).status).toBe(200);
    await expectInvalidToken(await sign({ nbf: now + 600 }), /not valid yet/);
    // The classic confusion attack: the public key's PEM as an HMAC secret.
    const pem = new TextEncoder().encode(await exportSPKI(key.publicKey));
    const confused = await new SignJWT({
      iss: issuer.url,
      aud: `${base}/mcp`,
      sub: 'alice',
      scope: 'mcp:tools',
      exp: now + 300,
    })
      .setProtectedHeader({ alg: 'HS256', kid: key.kid })
      .sign(pem);
    await expectInvalidToken(confused, /algorithm is not one this server accepts/);
    // RS512 is a sound algorithm, but not on this server's list: refused before any key is used.
    const rs512 = await generateKeyPair('RS512');
    await expectInvalidToken(
      await sign({}, { privateKey: rs512.privateKey, kid: key.kid }, 'RS512'),
      /algorithm is not one/,
    );
  });

  it('AUTH-17 answers 403 insufficient_scope for a valid token without the required scope', async () => {
    const response = await request(await sign({ scope: 'openid' }));
    expect(response.status).toBe(403);
    const fields = challenge(response);
    expect(fields).toMatchObject({
      error: 'insufficient_scope',
      scope: 'mcp:tools',
      resource_metadata: `${base}/.well-known/oauth-protected-resource`,
    });
    // `scp` as a list, as some issuers send it, grants the scope.
    expect((await request(await sign({ scope: undefined, scp: ['mcp:tools'] }))).status).toBe(200);
  });

  it('AUTH-17 an unknown kid after key rotation fetches the JWKS once, then verifies; a burst of unknown kids costs one fetch', async () => {
    const before = issuer.fetches.jwks;
    const rotated = await rsaKey('key-2');
    issuer.published = [await jwkOf(key), await jwkOf(rotated)];
    const token = await sign({}, rotated);
    expect((await request(token)).status).toBe(200);
    expect(issuer.fetches.jwks).toBe(before + 1);
    expect((await request(token)).status).toBe(200);
    expect(issuer.fetches.jwks).toBe(before + 1);
    // A burst of tokens with unknown kids right after: they wait for one fetch together (a
    // window after the last one, 1 s in this test), and are refused.
    const stranger = await rsaKey('key-unknown');
    const burst = await Promise.all(
      Array.from({ length: 5 }, async () => (await request(await sign({}, stranger))).status),
    );
    expect(burst).toEqual([401, 401, 401, 401, 401]);
    expect(issuer.fetches.jwks).toBe(before + 2);
    await expectInvalidToken(await sign({}, stranger), /key the issuer does not publish/);
  });

  it('AUTH-15 serves the protected-resource metadata naming the resource, the issuer and the scopes, and a 401 challenge without a token', async () => {
    for (const [path, resource] of [
      ['/.well-known/oauth-protected-resource', base],
      ['/.well-known/oauth-protected-resource/mcp', `${base}/mcp`],
    ] as const) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      const preflight = await fetch(`${base}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://inspector.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'mcp-protocol-version',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-headers')).toBe('mcp-protocol-version');
      expect(await response.json()).toEqual({
        resource,
        authorization_servers: [issuer.url],
        scopes_supported: ['mcp:tools'],
        bearer_methods_supported: ['header'],
        resource_name: path.endsWith('/mcp') ? 'mcp-agent gateway' : 'mcp-agent',
      });
    }
    for (const path of ['/v1/servers', '/mcp']) {
      const response = await request(undefined, path);
      expect(response.status).toBe(401);
      const fields = challenge(response);
      expect(fields).toEqual({
        scope: 'mcp:tools',
        resource_metadata: `${base}/.well-known/oauth-protected-resource${path === '/mcp' ? '/mcp' : ''}`,
      });
      expect(JSON.stringify(await response.json())).toMatch(/needs a bearer token/);
    }
  });
});

describe('a gateway stream opened with a JWT', () => {
  it('ends when the JWT expires, so no stream outlives its token', async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 3;
    const headers = {
      authorization: `Bearer ${await sign({ exp: expiresAt })}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    };
    const initialized = await request(headers.authorization.slice(7), '/mcp');
    expect(initialized.status).toBe(200);
    await initialized.text();
    const session = {
      ...headers,
      'mcp-session-id': initialized.headers.get('mcp-session-id') ?? '',
    };
    await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: session,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    const stream = await fetch(`${base}/mcp`, { headers: session });
    expect(stream.status).toBe(200);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    // Ends (cleanly or cut) at the expiry, not before it.
    await (async () => {
      for (;;) if ((await reader.read()).done) return;
    })().catch(() => undefined);
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt * 1000 - 1_000);
    expect(Date.now()).toBeLessThan(expiresAt * 1000 + 5_000);
  });
});

describe('JwtVerifier on its own', () => {
  it('needs https and a public address for the issuer unless the operator allows private networks', async () => {
    expect(() => new JwtVerifier({ issuer: issuer.url, audience: 'https://a.example' })).toThrow(
      /https.*MCP_AGENT_OAUTH_ALLOW_PRIVATE=1/,
    );
    const loopback = new JwtVerifier({
      issuer: 'https://127.0.0.1:9',
      audience: 'https://a.example',
    });
    await expect(loopback.verify(await sign())).rejects.toThrow(/private or reserved address/);
    expect(
      () =>
        new JwtVerifier({
          issuer: 'https://login.example',
          audience: 'https://a.example',
          algorithms: ['HS256' as 'RS256'],
        }),
    ).toThrow(/asymmetric/);
  });

  it('verifies with a given JWKS URL and a configured user claim, no discovery', async () => {
    const metadataFetches = issuer.fetches.metadata;
    const verifier = new JwtVerifier({
      issuer: issuer.url,
      audience: 'https://agent.example.com',
      jwksUrl: `${issuer.url}/jwks`,
      userClaim: 'email',
      allowPrivateNetwork: true,
    });
    const token = await sign({ aud: 'https://agent.example.com', email: 'carol@example.com' });
    expect(await verifier.verify(token)).toMatchObject({
      userId: 'carol@example.com',
      scopes: ['mcp:tools', 'openid'],
    });
    await expect(verifier.verify(await sign({ aud: 'https://agent.example.com' }))).rejects.toThrow(
      /no "email" claim/,
    );
    expect(issuer.fetches.metadata).toBe(metadataFetches);
  });
});
