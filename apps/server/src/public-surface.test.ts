import { describe, expect, it } from 'vitest';

// The deliberate public surface (runtime names; types are checked by tsc): a change to it
// is a visible diff here, to be made on purpose.
describe('the public surface of @mcp-agent/server', () => {
  it('the root entry exports exactly these names', async () => {
    expect(Object.keys(await import('@mcp-agent/server')).sort()).toMatchInlineSnapshot(`
      [
        "JwtVerifier",
        "LogBuffer",
        "McpTraceLog",
        "MemoryEventStore",
        "OperatorToken",
        "StaticTokenVerifier",
        "TokenFileVerifier",
        "addToken",
        "createGatewayServer",
        "createHttpApi",
        "createHttpGateway",
        "observabilityRoutes",
        "protectedResourceAudiences",
        "readTokenFile",
        "revokeToken",
        "serveHttpApi",
        "serveHttpGateway",
        "serveStdioGateway",
        "startTelemetry",
        "tokenDigest",
      ]
    `);
  });
});
