import { describe, expect, it } from 'vitest';

// The deliberate public surface (runtime names; types are checked by tsc): a change to it
// is a visible diff here, to be made on purpose.
describe('the public surface of @mcp-agent/compat', () => {
  it('the root entry exports exactly these names', async () => {
    expect(Object.keys(await import('@mcp-agent/compat')).sort()).toMatchInlineSnapshot(`
      [
        "OAuthManager",
        "PROVIDER_ID_PATTERN",
        "ProviderNotFoundError",
        "closeDefaultStack",
        "executeMcpTask",
        "getClient",
        "getIndex",
        "getManifest",
        "initRegistry",
        "isRegistered",
        "searchTools",
      ]
    `);
  });
});
