import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors } from 'jose';
import { jwkOf, rsaKey, startIssuer, type TestIssuer } from './issuer-test-helpers.js';
import { JwksKeySet } from './jwks-key-set.js';

let issuer: TestIssuer;
beforeAll(async () => {
  issuer = await startIssuer();
});
afterAll(async () => {
  await issuer?.close();
});

// Resolves once the issuer has been asked `count` times in all.
async function fetched(count: number): Promise<void> {
  while (issuer.fetches.jwks < count) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('JwksKeySet', () => {
  it("AUTH-20 refreshes in the background when the JWKS's max-age runs out, held to the floor and ceiling, and no request waits for it", async () => {
    const one = await rsaKey('one');
    const two = await rsaKey('two');
    issuer.published = [await jwkOf(one)];
    issuer.cacheControl = 'public, max-age=120';
    let now = 1_000_000;
    const keys = new JwksKeySet({
      url: new URL(`${issuer.url}/jwks`),
      fetch,
      minAgeMs: 60_000,
      maxAgeMs: 600_000,
      refetchWindowMs: 10,
      now: () => now,
    });
    const start = issuer.fetches.jwks;
    await keys.resolve({ alg: 'RS256', kid: 'one' });
    expect(issuer.fetches.jwks).toBe(start + 1);
    // Within its max-age (120 s): no fetch.
    now += 119_000;
    await keys.resolve({ alg: 'RS256', kid: 'one' });
    expect(issuer.fetches.jwks).toBe(start + 1);
    // Past it: this request goes on with the keys at hand while they are fetched again; key
    // "one" is retired meanwhile, and refused once the refresh is in.
    issuer.published = [await jwkOf(two)];
    issuer.cacheControl = 'max-age=0';
    now += 2_000;
    await keys.resolve({ alg: 'RS256', kid: 'one' });
    await fetched(start + 2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(keys.resolve({ alg: 'RS256', kid: 'one' })).rejects.toBeInstanceOf(
      errors.JWKSNoMatchingKey,
    );
    await keys.resolve({ alg: 'RS256', kid: 'two' });
    const refreshed = issuer.fetches.jwks;
    // max-age=0 is held to the floor (60 s): no fetch on every request.
    now += 59_000;
    await keys.resolve({ alg: 'RS256', kid: 'two' });
    expect(issuer.fetches.jwks).toBe(refreshed);
    issuer.cacheControl = undefined;
  });

  it('requests that arrive while the first fetch runs share it', async () => {
    const one = await rsaKey('shared');
    issuer.published = [await jwkOf(one)];
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // A slow issuer: the later requests arrive while the first fetch is under way.
    const slow: typeof fetch = async (input, init) => {
      await pause(100);
      return fetch(input, init);
    };
    const keys = new JwksKeySet({ url: new URL(`${issuer.url}/jwks`), fetch: slow });
    const before = issuer.fetches.jwks;
    const started = performance.now();
    const first = keys.resolve({ alg: 'RS256', kid: 'shared' });
    await pause(20);
    await Promise.all([
      first,
      ...Array.from({ length: 4 }, () => keys.resolve({ alg: 'RS256', kid: 'shared' })),
    ]);
    expect(issuer.fetches.jwks).toBe(before + 1);
    // None waited a refetch window (5 s by default) for a fetch of its own.
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('answers 503-style NotReady at once while the issuer is down and no keys are held (fail closed)', async () => {
    const keys = new JwksKeySet({
      url: new URL(`${issuer.url}/missing`),
      fetch,
      refetchWindowMs: 60_000,
    });
    await expect(keys.resolve({ alg: 'RS256', kid: 'one' })).rejects.toThrow(/answered 404/);
    const before = issuer.fetches.jwks;
    const started = performance.now();
    await expect(keys.resolve({ alg: 'RS256', kid: 'one' })).rejects.toThrow(/answered 404/);
    // Refused without waiting for the window and without another request to the issuer.
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(issuer.fetches.jwks).toBe(before);
  });
});
