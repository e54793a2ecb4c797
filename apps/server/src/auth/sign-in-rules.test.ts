import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, type JWTPayload } from 'jose';
import { createContext } from '@mcp-agent/core';
import { freePort } from '@mcp-agent/test-support';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { initializeMcp } from '../api/api-test-helpers.js';
import { serveHttpApi } from '../api/serve-api.js';
import { StaticTokenVerifier } from './token-verifier.js';
import {
  jwkOf,
  rsaKey,
  startIssuer,
  type SigningKey,
  type TestIssuer,
} from './issuer-test-helpers.js';
import { JwtVerifier, protectedResourceAudiences } from './jwt-verifier.js';

// One identity rule at sign-in, the same on the HTTP API and the gateway, for JWTs and static
// tokens; iat and the maximum age; key rotation under a flood of made-up key ids. All against a
// real issuer and the real server on loopback.

const home = mkdtempSync(join(tmpdir(), 'mcp-sign-in-'));
const WINDOW_MS = 1_000;
const MAX_AGE_S = 3_600;
let issuer: TestIssuer;
let stack: AgentStack;
let jwtApi: Awaited<ReturnType<typeof serveHttpApi>>;
let staticApi: Awaited<ReturnType<typeof serveHttpApi>>;
let base: string;
let key: SigningKey;

// The look-alikes of issue 45 (AUTH-22), each with the reason it is refused: made canonical,
// each would be another user's id (alice, jos\u00e9, \u00c5ngstr\u00f6m).
const LOOK_ALIKES: readonly (readonly [string, RegExp])[] = [
  ['alice ', /whitespace \(U\+0020\) at its start or end/],
  [' alice', /whitespace \(U\+0020\) at its start or end/],
  ['alice\u00a0', /whitespace \(U\+00A0\) at its start or end/],
  ['alice\u3000', /whitespace \(U\+3000\) at its start or end/],
  ['alice\ufeff', /whitespace \(U\+FEFF\) at its start or end/],
  ['jose\u0301', /not in Unicode normal form C/],
  ['\u212Bngstr\u00f6m', /not in Unicode normal form C/],
  ['A\u030Angstr\u00f6m', /not in Unicode normal form C/],
];
// The canonical ids the look-alikes would have become: each a user with a server of its own.
const CANONICAL = ['alice', 'jos\u00e9', '\u00c5ngstr\u00f6m'];

// Static tokens whose users break the rule, as a token file or an embedder might hold them.
const STATIC: Record<string, string> = {
  ['t'.repeat(32)]: 'alice',
  ['n'.repeat(32)]: 'a\u0000b',
  ['d'.repeat(32)]: '../bob',
  ['l'.repeat(32)]: 'x'.repeat(300),
  ...Object.fromEntries(
    [...LOOK_ALIKES.map(([user]) => user), ...CANONICAL.slice(1)].map((user, i) => [
      `look-alike-${String(i).padStart(2, '0')}-${'x'.repeat(16)}`,
      user,
    ]),
  ),
};
const staticToken = (user: string): string =>
  Object.entries(STATIC).find(([, u]) => u === user)?.[0] as string;

function sign(claims: JWTPayload = {}, signer: SigningKey = key): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: issuer.url,
    aud: `${base}/mcp`,
    sub: 'alice',
    iat: now,
    exp: now + 300,
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: signer.kid })
    .sign(signer.privateKey);
}

// The API's server list, or the gateway's initialize, with `token`.
function request(url: string, token: string, surface: 'api' | 'gateway'): Promise<Response> {
  if (surface === 'api')
    return fetch(`${url}/v1/servers`, { headers: { authorization: `Bearer ${token}` } });
  return initializeMcp(url, { authorization: `Bearer ${token}` });
}

// 401 with `error="invalid_token"` whose description matches `reason`, on both surfaces.
async function expectRefusedOnBoth(url: string, token: string, reason: RegExp): Promise<void> {
  for (const surface of ['api', 'gateway'] as const) {
    const response = await request(url, token, surface);
    const header = response.headers.get('www-authenticate') ?? '';
    expect({ surface, status: response.status }).toEqual({ surface, status: 401 });
    expect(header).toMatch(/^Bearer .*error="invalid_token"/);
    expect(header).toMatch(reason);
    expect(header).toContain('resource_metadata="');
    expect(JSON.stringify(await response.json())).toMatch(reason);
  }
}

// The ids of the servers the API lists for the token's user.
async function serverIds(url: string, token: string): Promise<string[]> {
  const response = await request(url, token, 'api');
  expect(response.status).toBe(200);
  return ((await response.json()) as { servers: { id: string }[] }).servers.map((s) => s.id);
}

beforeAll(async () => {
  issuer = await startIssuer();
  key = await rsaKey('key-1');
  issuer.published = [await jwkOf(key)];
  stack = await openAgentStack({
    home,
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
    userServers: { stdio: 'none', remote: 'public' },
    sandbox: false,
  });
  for (const [i, userId] of CANONICAL.entries())
    await stack.registry.addServer(createContext({ userId }), {
      id: i === 0 ? 'alice-remote' : `remote-${i}`,
      transport: 'streamable-http',
      url: 'https://mcp.example.com/mcp',
    });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  jwtApi = await serveHttpApi({
    stack,
    port,
    publicUrl: base,
    verifier: new JwtVerifier({
      issuer: issuer.url,
      audience: protectedResourceAudiences(base),
      jwksCooldownMs: WINDOW_MS,
      maxTokenAgeSeconds: MAX_AGE_S,
      allowPrivateNetwork: true,
    }),
  });
  staticApi = await serveHttpApi({ stack, port: 0, verifier: new StaticTokenVerifier(STATIC) });
});
afterAll(async () => {
  await jwtApi?.close();
  await staticApi?.close();
  await stack?.close();
  await issuer?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('one identity rule at sign-in', () => {
  it('AUTH-18 a JWT whose sub holds a NUL or a newline, is over-long or is ../bob is refused with 401 invalid_token on the API and the gateway alike', async () => {
    for (const sub of ['a\u0000b', 'a\nb', 'x'.repeat(300), '../bob', 'alice/../bob'])
      await expectRefusedOnBoth(jwtApi.url, await sign({ sub }), /not a valid user id/);
    // A valid one passes on both, as its user.
    const ok = await sign();
    expect((await request(jwtApi.url, ok, 'api')).status).toBe(200);
    expect((await request(jwtApi.url, ok, 'gateway')).status).toBe(200);
  });

  it('AUTH-18 static tokens are held to the same rule', async () => {
    for (const user of ['a\u0000b', '../bob', 'x'.repeat(300)])
      await expectRefusedOnBoth(staticApi.url, staticToken(user), /not a valid user id/);
    const listed = (await (await request(staticApi.url, staticToken('alice'), 'api')).json()) as {
      servers: { id: string }[];
    };
    expect(listed.servers.map((s) => s.id)).toEqual(['alice-remote']);
    expect((await request(staticApi.url, staticToken('alice'), 'gateway')).status).toBe(200);
  });

  it('AUTH-22 a JWT whose sub only looks like another user (space, NBSP, U+3000, BOM, not NFC) is refused with 401 and the reason on the API and the gateway, never mapped onto that user', async () => {
    for (const [sub, reason] of LOOK_ALIKES) {
      await expectRefusedOnBoth(jwtApi.url, await sign({ sub }), /not a valid user id/);
      await expectRefusedOnBoth(jwtApi.url, await sign({ sub }), reason);
    }
    // The canonical ids sign in, each seeing its own server only.
    for (const [i, sub] of CANONICAL.entries()) {
      const token = await sign({ sub });
      expect(await serverIds(jwtApi.url, token)).toEqual([
        i === 0 ? 'alice-remote' : `remote-${i}`,
      ]);
      expect((await request(jwtApi.url, token, 'gateway')).status).toBe(200);
    }
  });

  it('AUTH-22 a static token whose user only looks like another user is refused the same way; the canonical users sign in as themselves', async () => {
    for (const [user, reason] of LOOK_ALIKES)
      await expectRefusedOnBoth(staticApi.url, staticToken(user), reason);
    for (const [i, user] of CANONICAL.entries()) {
      expect(await serverIds(staticApi.url, staticToken(user))).toEqual([
        i === 0 ? 'alice-remote' : `remote-${i}`,
      ]);
      expect((await request(staticApi.url, staticToken(user), 'gateway')).status).toBe(200);
    }
  });

  it('AUTH-19 a JWT issued a year in the future, or older than the maximum token age, is refused; within the skew it passes', async () => {
    const now = Math.floor(Date.now() / 1000);
    const year = 365 * 24 * 3600;
    await expectRefusedOnBoth(
      jwtApi.url,
      await sign({ iat: now + year, exp: now + year + 300 }),
      /issue time \(iat\)/,
    );
    await expectRefusedOnBoth(
      jwtApi.url,
      await sign({ iat: now - MAX_AGE_S - 120, exp: now + 300 }),
      /older than the 3600 s/,
    );
    // With a maximum age, a token must say when it was issued.
    await expectRefusedOnBoth(jwtApi.url, await sign({ iat: undefined }), /iat/);
    expect((await request(jwtApi.url, await sign({ iat: now + 10 }), 'api')).status).toBe(200);
  });
});

describe('key rotation nobody can hold back', () => {
  it('AUTH-20 a key published without notice is accepted on its first request while an outsider floods made-up key ids; the flood costs at most one JWKS fetch per window', async () => {
    const outsider = await rsaKey('made-up');
    let flooding = true;
    let sent = 0;
    const statuses = new Set<number>();
    const pending: Promise<unknown>[] = [];
    const flood = (async () => {
      while (flooding) {
        const fake = await sign({}, { ...outsider, kid: `made-up-${sent++}` });
        pending.push(
          request(jwtApi.url, fake, sent % 2 === 0 ? 'api' : 'gateway').then((r) =>
            statuses.add(r.status),
          ),
        );
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const started = performance.now();
    const fetchesBefore = issuer.fetches.jwks;
    // Wait until a made-up id has just caused a fetch, the moment a shared cooldown would bite.
    while (issuer.fetches.jwks < fetchesBefore + 2)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const rotated = await rsaKey('key-rotated');
    issuer.published = [await jwkOf(key), await jwkOf(rotated)];
    const first = await request(jwtApi.url, await sign({}, rotated), 'api');
    expect(first.status).toBe(200);
    expect((await request(jwtApi.url, await sign({}, rotated), 'gateway')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2 * WINDOW_MS));
    flooding = false;
    await flood;
    await Promise.all(pending);
    const elapsed = performance.now() - started;
    const fetches = issuer.fetches.jwks - fetchesBefore;
    // Every made-up id was refused; the fetches stayed within one per window (plus the one
    // under way when the measurement began).
    expect([...statuses]).toEqual([401]);
    expect(sent).toBeGreaterThan(40);
    expect(fetches).toBeLessThanOrEqual(Math.ceil(elapsed / WINDOW_MS) + 1);
  });
});
