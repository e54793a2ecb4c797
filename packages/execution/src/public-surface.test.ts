import { describe, expect, it } from 'vitest';

// The deliberate public surface (runtime names; types are checked by tsc): a change to it
// is a visible diff here, to be made on purpose.
describe('the public surface of @mcp-agent/execution', () => {
  it('the root entry exports exactly these names', async () => {
    expect(Object.keys(await import('@mcp-agent/execution')).sort()).toMatchInlineSnapshot(`
      [
        "BYTES_PER_TOKEN",
        "DEFAULT_ENVELOPE_LIMITS",
        "DEFAULT_IMAGE_LIMITS",
        "DEFAULT_SANDBOX_LIMITS",
        "IsolatedVmSandbox",
        "MemoryObservationStore",
        "describeBlob",
        "estimateTokens",
        "generateDeclarations",
        "isMedia",
        "nameTools",
        "parseJsonPath",
        "parseJsonText",
        "processObservation",
        "selectJsonPath",
      ]
    `);
  });

  it('./testing exports exactly these names', async () => {
    expect(Object.keys(await import('@mcp-agent/execution/testing')).sort()).toMatchInlineSnapshot(`
      [
        "FakeSandbox",
        "reassemble",
      ]
    `);
  });
});
