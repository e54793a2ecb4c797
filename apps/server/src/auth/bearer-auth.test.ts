import { describe, expect, it } from 'vitest';
import { silentLogger } from '@mcp-agent/core';
import { StaticTokenVerifier, type TokenVerifier } from './token-verifier.js';
import { authenticateBearer } from './bearer-auth.js';
import { tokenDigest } from './token-digest.js';

const options = { resourceMetadataUrl: 'http://127.0.0.1/meta', logger: silentLogger };
const token = 'k'.repeat(40);

describe('authenticateBearer', () => {
  it('works the token’s digest out once, hands it to the verifier and ties the caller to it', async () => {
    const asked: [string, string | undefined][] = [];
    const verifier: TokenVerifier = {
      verify: async (seen, digest) => {
        asked.push([seen, digest]);
        return 'alice';
      },
    };
    const caller = await authenticateBearer(`Bearer ${token}`, verifier, options);
    expect(asked).toEqual([[token, tokenDigest(token)]]);
    expect(caller).toEqual({ userId: 'alice', tokenDigest: tokenDigest(token) });
  });

  it('the static verifier answers from the digest it is given, and hashes the token without one', async () => {
    const verifier = new StaticTokenVerifier({ [token]: 'alice' });
    expect(await verifier.verify(token)).toBe('alice');
    expect(await verifier.verify(token, tokenDigest(token))).toBe('alice');
    expect(await verifier.verify('x'.repeat(40))).toBeUndefined();
    expect(await authenticateBearer(`Bearer ${token}`, verifier, options)).toMatchObject({
      userId: 'alice',
    });
    expect(await authenticateBearer(`Bearer ${'x'.repeat(40)}`, verifier, options)).toMatchObject({
      status: 401,
    });
  });
});
