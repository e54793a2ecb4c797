import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext, UnauthorizedError, type AgentContext } from '@mcp-agent/core';
import { ConnectionPool } from '../pool/connection-pool.js';
import type { Registry } from '../../registry.js';
import { createTestRegistry } from '../../testing/index.js';
import { checkedLookup, guardedFetch } from '../net/guarded-fetch.js';
import { isPrivateAddress } from '../../store/availability/private-address.js';
import { OAuthService } from './oauth-service.js';
import { serverFixtures } from '@mcp-agent/test-support';
import { repositoriesOf } from '../../store/tenant-store.js';

const alice = createContext({ userId: 'alice' });
const bob = createContext({ userId: 'bob' });
const REDIRECT = 'http://127.0.0.1:8976/callback';

interface Fixture {
  readonly child: ChildProcess;
  readonly base: string;
  stats(): Promise<{
    refreshes: number;
    registrations: number;
    authorizationRequests: Record<string, string>[];
    tokenRequests: { grant_type: string; resource: string | null }[];
  }>;
  post(path: string): Promise<void>;
}

async function startFixture(): Promise<Fixture> {
  const script = serverFixtures.oauth;
  const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\S+)/.exec(out);
      if (match) resolve(match[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`fixture exited ${code}`)));
  });
  return {
    child,
    base,
    stats: async () =>
      (await (await fetch(`${base}/__stats`)).json()) as Awaited<ReturnType<Fixture['stats']>>,
    post: async (path) => {
      await fetch(`${base}${path}`, { method: 'POST' });
    },
  };
}

let fixture: Fixture;
let registry: Registry;
let oauth: OAuthService;
let pool: ConnectionPool;

beforeEach(async () => {
  fixture = await startFixture();
  registry = await createTestRegistry();
  // The fixture is a loopback http server: development mode (AUTH-05 tests the default).
  oauth = new OAuthService(registry, { allowPrivateNetwork: true });
  pool = new ConnectionPool(registry, { oauth, pingIntervalMs: 0, attempts: 1 });
  for (const ctx of [alice, bob]) {
    await registry.addServer(ctx, {
      id: 'linear',
      transport: 'streamable-http',
      url: `${fixture.base}/mcp`,
    });
  }
});
afterEach(async () => {
  await pool.close();
  await registry.close();
  fixture.child.kill('SIGKILL');
});

// Plays the user's browser: follows the authorisation URL to the redirect and reads the callback.
async function authorise(
  ctx: AgentContext,
): Promise<{ code: string; state: string; iss: string; url: URL }> {
  const { authorizationUrl } = await oauth.startOAuth(ctx, 'linear', REDIRECT);
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const callback = new URL(response.headers.get('location') as string);
  return {
    code: callback.searchParams.get('code') as string,
    state: callback.searchParams.get('state') as string,
    iss: callback.searchParams.get('iss') as string,
    url: new URL(authorizationUrl),
  };
}

describe('OAuth for remote servers', () => {
  it('AUTH-02 authorises with PKCE S256 and the resource indicator, stores tokens in the vault, and the pool uses them', async () => {
    const { code, state, iss, url } = await authorise(alice);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(`${fixture.base}/mcp`);
    expect(url.searchParams.get('state')).toBe(state);
    await oauth.finalizeOAuth(alice, 'linear', code, state, iss);
    const stats = await fixture.stats();
    expect(stats.registrations).toBe(1);
    expect(stats.tokenRequests).toEqual([
      { grant_type: 'authorization_code', resource: `${fixture.base}/mcp` },
    ]);
    expect(await registry.isAuthorized(alice, 'linear')).toBe(true);
    const stored = await registry.db.selectFrom('secrets').select('ciphertext').execute();
    // The fixture's tokens are `at_<uuid>` / `rt_<uuid>`; base64url ciphertext can hold "rt_" by
    // chance, never a prefix followed by a UUID's dashes.
    expect(JSON.stringify(stored)).not.toMatch(/(at|rt)_[0-9a-f]{8}-[0-9a-f]{4}-/);
    const result = await pool.callTool(alice, 'linear', 'whoami', {});
    expect(result.content).toEqual([{ type: 'text', text: 'an authorised caller' }]);
    // The audit log: the sign-in, and the tokens' revocation, on the tenant's record.
    await oauth.disconnect(alice, 'linear');
    expect(
      (await repositoriesOf(registry).audit.list(alice))
        .slice(0, 2)
        .map((e) => [e.action, e.serverId]),
    ).toEqual([
      ['oauth.disconnected', 'linear'],
      ['oauth.signed_in', 'linear'],
    ]);
    expect((await repositoriesOf(registry).audit.list(bob)).map((e) => e.action)).not.toContain(
      'oauth.signed_in',
    );
  });

  it('AUTH-06 a missing, wrong or replayed state is refused', async () => {
    const { code, state, iss } = await authorise(alice);
    await expect(oauth.finalizeOAuth(alice, 'linear', code, 'forged')).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    await expect(oauth.finalizeOAuth(bob, 'linear', code, state, iss)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    // Wrong states leave the pending login untouched (API-04): the right one completes it, once.
    await oauth.finalizeOAuth(alice, 'linear', code, state, iss);
    await expect(oauth.finalizeOAuth(alice, 'linear', code, state, iss)).rejects.toThrow(
      /missing, wrong or reused state/,
    );
  });

  it('AUTH-07 an authorisation response from another issuer, or without the promised iss, is refused before the token exchange', async () => {
    const first = await authorise(alice);
    expect(first.iss).toBe(fixture.base);
    await expect(
      oauth.finalizeOAuth(alice, 'linear', first.code, first.state, 'https://attacker.example'),
    ).rejects.toThrow(/issuer "https:\/\/attacker\.example", not from/);
    const second = await authorise(alice);
    // The server advertises authorization_response_iss_parameter_supported: a missing iss is a mix-up sign.
    await expect(oauth.finalizeOAuth(alice, 'linear', second.code, second.state)).rejects.toThrow(
      /no issuer \(iss\)/,
    );
    expect((await fixture.stats()).tokenRequests).toEqual([]);
    expect(await registry.isAuthorized(alice, 'linear')).toBe(false);
    const third = await authorise(alice);
    await oauth.finalizeOAuth(alice, 'linear', third.code, third.state, third.iss);
    expect(await registry.isAuthorized(alice, 'linear')).toBe(true);
  });

  it('AUTH-05 by default, OAuth URLs over http or at private, loopback or reserved addresses are refused', async () => {
    const strict = new OAuthService(registry);
    await expect(strict.startOAuth(alice, 'linear', REDIRECT)).rejects.toThrow(
      /not https|private or reserved/,
    );
    expect((await fixture.stats()).registrations).toBe(0);
    for (const host of [
      '127.0.0.1',
      '0177.0.0.1',
      '0x7f000001',
      '[::ffff:127.0.0.1]',
      '[::1]',
      '169.254.169.254',
      '10.1.2.3',
      'rebinding.example',
    ]) {
      const send = guardedFetch({
        fetch: () => Promise.reject(new Error('must not be sent')),
        // A rebinding host answers with a public address and a private one.
        resolve: async () => ['93.184.216.34', '127.0.0.1'],
      });
      await expect(send(`https://${host}/.well-known/oauth-authorization-server`)).rejects.toThrow(
        /private or reserved/,
      );
    }
    // A public first hop that redirects to a private one is stopped at the redirect.
    const hops: string[] = [];
    const send = guardedFetch({
      resolve: async (host) => [host === 'public.example' ? '93.184.216.34' : '10.0.0.5'],
      fetch: async (url) => {
        hops.push(String(url));
        return new Response(null, {
          status: 302,
          headers: { location: 'https://internal.example/' },
        });
      },
    });
    await expect(
      send('https://public.example/.well-known/oauth-protected-resource'),
    ).rejects.toThrow(/internal\.example points at a private or reserved address/);
    expect(hops).toEqual(['https://public.example/.well-known/oauth-protected-resource']);
    expect(isPrivateAddress('93.184.216.34')).toBe(false);
  });

  it('AUTH-05 a name that rebinds to a private address between the check and the connection is refused at connect', async () => {
    // DNS rebinding: public when the URL is checked, loopback when the connection looks it up.
    const answers = [['93.184.216.34'], ['127.0.0.1']];
    const asked: string[] = [];
    const send = guardedFetch({
      resolve: async (host) => {
        asked.push(host);
        return answers.shift() ?? ['127.0.0.1'];
      },
    });
    await expect(
      send('https://rebinding.example/.well-known/oauth-authorization-server'),
    ).rejects.toThrow(
      /rebinding\.example resolved to a private or reserved address when connecting/,
    );
    // The connection did its own, checked lookup instead of trusting the first answer.
    expect(asked).toEqual(['rebinding.example', 'rebinding.example']);

    // The lookup answers net's single-address and all-addresses forms for public names.
    const lookup = checkedLookup(async () => ['93.184.216.34', '2606:2800:220:1::1']);
    const single = await new Promise((resolve, reject) =>
      lookup('public.example', {}, (error, address, family) =>
        error ? reject(error) : resolve({ address, family }),
      ),
    );
    expect(single).toEqual({ address: '93.184.216.34', family: 4 });
    const all = await new Promise((resolve, reject) =>
      lookup('public.example', { all: true }, (error, addresses) =>
        error ? reject(error) : resolve(addresses),
      ),
    );
    expect(all).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
  });

  it('AUTH-04 refuses redirect URIs that are not https or loopback http', async () => {
    for (const bad of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'http://evil.example/cb',
      'not a url',
    ]) {
      await expect(oauth.startOAuth(alice, 'linear', bad)).rejects.toThrow(/redirect URI/);
    }
  });

  it('AUTH-09 twenty concurrent calls with an expired token make exactly one refresh, and all succeed', async () => {
    const { code, state, iss } = await authorise(alice);
    await oauth.finalizeOAuth(alice, 'linear', code, state, iss);
    await pool.waitForReady(alice, ['linear']);
    await fixture.post('/__expire');
    const results = await Promise.all(
      Array.from({ length: 20 }, () => pool.callTool(alice, 'linear', 'whoami', {})),
    );
    expect(results.every((r) => JSON.stringify(r.content).includes('authorised'))).toBe(true);
    expect((await fixture.stats()).refreshes).toBe(1);
    expect(await registry.isAuthorized(alice, 'linear')).toBe(true);
  });

  it("AUTH-10 a refused refresh turns only that tenant's account to needs_auth, with an error telling to re-authorise", async () => {
    for (const ctx of [alice, bob]) {
      const { code, state, iss } = await authorise(ctx);
      await oauth.finalizeOAuth(ctx, 'linear', code, state, iss);
    }
    await pool.waitForReady(alice, ['linear']);
    await pool.waitForReady(bob, ['linear']);
    // Alice's refresh token dies; bob's session is untouched.
    const aliceTokens = JSON.parse(
      (await repositoriesOf(registry).accounts.getSecret(
        alice,
        'linear',
        'oauth_tokens',
      )) as string,
    );
    await repositoriesOf(registry).accounts.putSecret(
      alice,
      'linear',
      'oauth_tokens',
      JSON.stringify({ ...aliceTokens, refresh_token: 'rt_revoked', expires_at: 0 }),
    );
    const error = await oauth.accessToken(alice, 'linear').catch((e: unknown) => e);
    expect(UnauthorizedError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/needs authorisation.*Sign in to it again/);
    expect((await repositoriesOf(registry).accounts.find(alice, 'linear'))?.status).toBe(
      'needs_auth',
    );
    expect(await registry.isAuthorized(alice, 'linear')).toBe(false);
    expect(await registry.isAuthorized(bob, 'linear')).toBe(true);
    expect((await pool.callTool(bob, 'linear', 'whoami', {})).content).toBeDefined();
    const refreshesBefore = (await fixture.stats()).refreshes;
    await oauth.accessToken(alice, 'linear').catch(() => undefined);
    // No retry storm: a second attempt is one more request at most, not a loop.
    expect((await fixture.stats()).refreshes - refreshesBefore).toBeLessThanOrEqual(1);
  });

  it('disconnect deletes the tokens', async () => {
    const { code, state, iss } = await authorise(alice);
    await oauth.finalizeOAuth(alice, 'linear', code, state, iss);
    await oauth.disconnect(alice, 'linear');
    expect(
      await repositoriesOf(registry).accounts.getSecret(alice, 'linear', 'oauth_tokens'),
    ).toBeUndefined();
    expect(await registry.isAuthorized(alice, 'linear')).toBe(false);
    await expect(oauth.accessToken(alice, 'linear')).rejects.toThrow(/never authorised/);
  });
});
