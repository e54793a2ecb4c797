import { describe, expect, it } from 'vitest';

// The deliberate public surface (runtime names; types are checked by tsc): a change to it
// is a visible diff here, to be made on purpose.
describe('the public surface of @mcp-agent/wire', () => {
  it('the root entry exports exactly these names', async () => {
    expect(Object.keys(await import('@mcp-agent/wire')).sort()).toMatchInlineSnapshot(`
      [
        "DEFAULT_EVENT_STORE_LIMITS",
        "MemoryEventStore",
        "ProcessTransport",
        "RequestLane",
        "SessionEventStore",
        "SessionTransport",
        "StdioLineTransport",
        "WIRE_MODES",
        "WIRE_VARIABLE",
        "answerUnreadableLine",
        "deliverProgressBeforeResponses",
        "openCallLane",
        "parseJsonRpcLine",
        "parseWireMode",
        "wireActivity",
        "wireModeFrom",
      ]
    `);
  });
});
