import { describe, expect, it } from 'vitest';

// The deliberate public surface (runtime names; types are checked by tsc): a change to it
// is a visible diff here, to be made on purpose.
describe('the public surface of @mcp-agent/core', () => {
  it('the root entry exports exactly these names', async () => {
    expect(Object.keys(await import('@mcp-agent/core')).sort()).toMatchInlineSnapshot(`
      [
        "BudgetExceededError",
        "CancelledError",
        "ConfigError",
        "CredentialError",
        "DEFAULT_BUDGET_CEILINGS",
        "ErrorCode",
        "ExpiringCache",
        "InvalidArgumentsError",
        "METER_NAME",
        "MIN_NODE_MAJOR",
        "McpAgentError",
        "NotFoundError",
        "NotReadyError",
        "PayloadTooLargeError",
        "PolicyDeniedError",
        "QuotaExceededError",
        "RateLimitedError",
        "SERVER_ID_PATTERN",
        "SandboxError",
        "ServerNotFoundError",
        "SpanKind",
        "TENANT_ATTRIBUTE",
        "TimeoutError",
        "ToolExecutionError",
        "ToolNotFoundError",
        "UnauthorizedError",
        "afterTurn",
        "assertSupportedNode",
        "backoffDelay",
        "canonicalHash",
        "captureTraceContext",
        "clampBudget",
        "clip",
        "compareText",
        "configError",
        "configInputs",
        "configureTenantAttribute",
        "createContext",
        "createLogger",
        "defineSlot",
        "describeIssues",
        "failedTaskResult",
        "formatPath",
        "formatToolId",
        "inSpan",
        "instruments",
        "isErrorCode",
        "isJsonObject",
        "isTelemetryObserved",
        "isTracing",
        "jsonBytes",
        "markSpanFailed",
        "mcpTrafficObserver",
        "observeMcpTraffic",
        "parseServerConfig",
        "parseServerConfigFile",
        "parseServerEntry",
        "parseToolId",
        "parseUserId",
        "promised",
        "recordInternalSpans",
        "redactSecrets",
        "renamedOption",
        "resolveBudget",
        "resolveBudgetCeilings",
        "silentLogger",
        "sleep",
        "systemClock",
        "tenantAttributes",
        "toJsonSafe",
        "toMcpAgentError",
        "toolNameProblem",
        "tracedCall",
        "userIdProblem",
        "withinTraceContext",
      ]
    `);
  });

  it('./testing exports exactly these names', async () => {
    expect(Object.keys(await import('@mcp-agent/core/testing')).sort()).toMatchInlineSnapshot(`
      [
        "createManualClock",
        "createMemoryLogger",
        "latencyStats",
        "percentile",
        "round3",
      ]
    `);
  });
});
