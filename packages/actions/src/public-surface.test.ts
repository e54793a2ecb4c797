import { describe, expect, it } from 'vitest';

// The deliberate public surface (runtime names; types are checked by tsc): a change to it
// is a visible diff here, to be made on purpose.
describe('the public surface of @mcp-agent/actions', () => {
  it('the root entry exports exactly these names', async () => {
    expect(Object.keys(await import('@mcp-agent/actions')).sort()).toMatchInlineSnapshot(`
      [
        "DispatchMetrics",
        "Dispatcher",
        "SERVER_OPERATIONS",
        "SchemaValidator",
        "chain",
        "changedToolLink",
        "codeToolCaller",
        "loggingLink",
        "policyLink",
        "quotaLink",
        "rateLimitLink",
        "telemetryLink",
        "usageLink",
      ]
    `);
  });

  it('./testing exports exactly these names', async () => {
    expect(Object.keys(await import('@mcp-agent/actions/testing')).sort()).toMatchInlineSnapshot(`
      [
        "MemoryToolApprovals",
        "MemoryToolCallPool",
      ]
    `);
  });
});
