import { describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { createManualClock } from '@mcp-agent/core/testing';
import { MemoryTokenStore } from '../../testing/index.js';
import { OAUTH_FIELDS } from './token-store.js';
import { VaultOAuthProvider } from './vault-oauth-provider.js';

// The SDK-facing OAuth provider over its TokenStore seam, with the store in memory.
const clock = createManualClock();
const alice = createContext({ userId: 'alice', clock });
const bob = createContext({ userId: 'bob', clock });

describe('VaultOAuthProvider over a TokenStore', () => {
  it('keeps tokens with their expiry, per tenant, and marks the account active', async () => {
    const store = new MemoryTokenStore();
    const provider = new VaultOAuthProvider(store, alice, 'linear', 'http://127.0.0.1/cb');
    await provider.saveTokens({ access_token: 'at-1', token_type: 'Bearer', expires_in: 3600 });
    clock.advance(600_000);
    expect(await provider.tokens()).toMatchObject({ access_token: 'at-1', expires_in: 3000 });
    expect(store.status(alice, 'linear')).toBe('active');
    const bobs = new VaultOAuthProvider(store, bob, 'linear', 'http://127.0.0.1/cb');
    expect(await bobs.tokens()).toBeUndefined();
  });

  it('invalidates exactly the fields asked for, and the verifier it never had is an error', async () => {
    const store = new MemoryTokenStore();
    const provider = new VaultOAuthProvider(store, alice, 'linear', 'http://127.0.0.1/cb');
    await provider.saveTokens({ access_token: 'at-1', token_type: 'Bearer' });
    await provider.saveCodeVerifier('verifier-1');
    const state = await provider.state();
    expect(JSON.parse((await store.get(alice, 'linear', OAUTH_FIELDS.state)) ?? '{}').value).toBe(
      state,
    );
    await provider.invalidateCredentials('tokens');
    expect(await provider.tokens()).toBeUndefined();
    expect(await provider.codeVerifier()).toBe('verifier-1');
    await provider.invalidateCredentials('all');
    await expect(provider.codeVerifier()).rejects.toThrow(/No PKCE verifier/);
  });
});
