import { describe, expect, it } from 'vitest';

// The deliberate public surface (runtime names; types are checked by tsc): a change to it
// is a visible diff here, to be made on purpose.
describe('the public surface of @mcp-agent/registry', () => {
  it('the root entry exports exactly these names', async () => {
    expect(Object.keys(await import('@mcp-agent/registry')).sort()).toMatchInlineSnapshot(`
      [
        "AVAILABILITY",
        "Availability",
        "ConnectionPool",
        "CredentialVault",
        "DEFAULT_AUDIT_RETENTION",
        "DEFAULT_MCP_REGISTRY_URL",
        "DEFAULT_PASSED_ENV",
        "EmbeddingCacheRepository",
        "GatewaySessionRepository",
        "MAX_USAGE_DAYS",
        "MULTI_TENANT_POLICY",
        "McpRegistryClient",
        "MemoryRateLimitCounter",
        "OAuthService",
        "PostgresChangeFeed",
        "Registry",
        "SINGLE_USER_POLICY",
        "SqliteChangeFeed",
        "TASK_METER",
        "TaskMeter",
        "TaskStore",
        "guardedFetch",
        "keyId",
        "loadKeyring",
        "migrateToLatest",
        "migrations",
        "openDatabase",
        "openRegistry",
        "passedEnvFrom",
        "recordedStatus",
        "rotateSecrets",
        "serverConfigFromRegistry",
        "toToolSpec",
      ]
    `);
  });

  it('./testing exports exactly these names', async () => {
    expect(Object.keys(await import('@mcp-agent/registry/testing')).sort()).toMatchInlineSnapshot(`
      [
        "MemoryChangeHub",
        "MemoryGatewaySessionStore",
        "MemoryPoolStore",
        "MemoryTokenStore",
        "createTestRegistry",
        "testDialects",
      ]
    `);
  });
});
