// The fixtures every package's tests use, in this private package so that no published package
// carries them. Resolved from the package root, so the same paths work from src/ and from dist/.
import { fileURLToPath } from 'node:url';

/** Paths of the MCP server fixtures other packages' tests launch over stdio. */
export const serverFixtures = {
  /** Tools and results from a JSON script file given as its argument. */
  scripted: fileURLToPath(new URL('../src/fixtures/scripted-server.mjs', import.meta.url)),
  /** Misbehaviour chosen by its first argument (crash-on-call, hang-call, garbage, …). */
  misbehaving: fileURLToPath(new URL('../src/fixtures/misbehaving-server.mjs', import.meta.url)),
  /** A server that dies while it loads ("Cannot find module …"), as a broken install does. */
  crashing: fileURLToPath(new URL('../src/fixtures/crashing-server.mjs', import.meta.url)),
  /** An MCP Registry API on loopback (`listening <url>`); argv: the URL of its remote entry. */
  mcpRegistry: fileURLToPath(new URL('../src/fixtures/mcp-registry-server.mjs', import.meta.url)),
  /** An OAuth authorisation server and a protected MCP server on one loopback port; prints `listening <url>`. */
  oauth: fileURLToPath(new URL('../src/fixtures/oauth-server.mjs', import.meta.url)),
  /** An OAuth authorisation server (the SDK's mcpAuthRouter) that issues RS256 JWTs; prints `listening <url>`. */
  oauthIssuer: fileURLToPath(new URL('../src/fixtures/oauth-issuer.mjs', import.meta.url)),
  /** The SDK's own streamable-HTTP server with one tool; prints `listening <url>`. */
  sdkHttp: fileURLToPath(new URL('../src/fixtures/sdk-http-server.mjs', import.meta.url)),
  /**
   * Appends its id to a log as it starts, then runs another fixture (argv: `<log> <id> <entry
   * URL> [args…]`): which servers a command started, read from the log.
   */
  startLogging: fileURLToPath(new URL('../src/fixtures/start-logging-server.mjs', import.meta.url)),
  /**
   * The SDK's low-level server with resources and no resources/templates/list handler (it
   * answers -32601); argv: how many resources, and the page size.
   */
  resourcesWithoutTemplates: fileURLToPath(
    new URL('../src/fixtures/resources-server.mjs', import.meta.url),
  ),
  /**
   * The fixtures the official conformance suite's server scenarios name (test_simple_text,
   * test_error_handling, test_tool_with_progress, test://static-text, …) on the SDK's McpServer.
   */
  conformance: fileURLToPath(new URL('../src/fixtures/conformance-server.mjs', import.meta.url)),
  /** A shell script that answers initialize and tools/list, then nothing. */
  tiny: fileURLToPath(new URL('../src/fixtures/tiny-server.sh', import.meta.url)),
} as const;

/** Another process holding the write lock of a SQLite file: `node <this> <file> <holdMs>`. */
export const sqliteLockHolder = fileURLToPath(
  new URL('../src/fixtures/sqlite-lock-holder.mjs', import.meta.url),
);
