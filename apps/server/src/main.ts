#!/usr/bin/env node
// The HTTP API and gateway as a process: node apps/server/dist/main.js --port 8080 --tokens tokens.json
// (or --issuer https://login.example.com --public-url https://agent.example.com for JWTs).
// `--migrate-only` migrates the database and exits; `--skip-migrations` refuses a schema that
// is behind instead of migrating it. SIGTERM drains (see the README's deployment recipe).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, createLogger, parseServerConfigFile, toMcpAgentError } from '@mcp-agent/core';
import { AUTH_FLAG_OPTIONS } from './auth/auth-config.js';
import { LIMIT_FLAG_OPTIONS, LIMIT_FLAGS, readOperatorLimits } from './operator-limits.js';

const HELP = `mcp-agent-server — the HTTP API and the MCP gateway on one port

Usage: mcp-agent-server --tokens <file> [--port 8080] [options]
       mcp-agent-server --issuer <url> --public-url <url> [options]

Sign-in (one or both):
  --tokens <file>            bearer tokens and their users (MCP_AGENT_TOKENS_FILE); create it
                             with "mcp-agent tokens add <user> --tokens <file>"
  --issuer <url>             JWTs from your identity provider (MCP_AGENT_OIDC_ISSUER)
  --audience <uri>           the audience tokens must name (MCP_AGENT_OIDC_AUDIENCE;
                             default derived from --public-url)
  --jwks-url <url>           MCP_AGENT_OIDC_JWKS_URL (default from the issuer's metadata)
  --user-claim <name>        MCP_AGENT_OIDC_USER_CLAIM (default sub)
  --required-scopes <list>   MCP_AGENT_OIDC_REQUIRED_SCOPES
  --algorithms <list>        MCP_AGENT_OIDC_ALGORITHMS
  --clock-skew <seconds>     MCP_AGENT_OIDC_CLOCK_SKEW
  --max-token-age <seconds>  MCP_AGENT_OIDC_MAX_TOKEN_AGE (oldest token accepted, by its iat)

Serving:
  --port <n>                 default $PORT or 8080
  --host <address>           default 127.0.0.1
  --home <dir>               the registry's home (MCP_AGENT_HOME); or MCP_AGENT_DATABASE_URL
  --stdio-allowlist <file>   the stdio servers tenants may add (MCP_AGENT_STDIO_ALLOWLIST)
  --servers <file>           app servers every user has: an mcpServers file, \${ENV} expanded
                             (MCP_AGENT_SERVERS_FILE)
  --public-url <url>         the URL users reach behind a reverse proxy (MCP_AGENT_PUBLIC_URL)
  --trust-proxy              believe X-Forwarded-Proto/Host (MCP_AGENT_TRUST_PROXY=1)
  --gateway-json-answers     answer /mcp calls without progress as JSON, not as resumable
                             streams (MCP_AGENT_GATEWAY_JSON_ANSWERS=1)
  MCP_AGENT_WIRE=sdk         (environment) the gateway and the pool on the MCP SDK alone,
                             without mcp-agent's call lanes; default lanes
  --mcp-registry-url <url>   the MCP Registry of GET /v1/registry/servers
                             (MCP_AGENT_MCP_REGISTRY_URL; default the official one)
  --operator-token-file <f>  the operator's token for /metrics and the UI's operator view
                             (MCP_AGENT_OPERATOR_TOKEN_FILE)

Deployment:
  --migrate-only             migrate the database and exit (run once before starting processes)
  --skip-migrations          refuse a schema that is behind (MCP_AGENT_SKIP_MIGRATIONS=1)
  --drain-ms <n>             on SIGTERM, how long calls and tasks may finish (MCP_AGENT_DRAIN_MS,
                             default 30000)

Limits:
${LIMIT_FLAGS.map((limit) => flagLine(`--${limit.flag} <n>`, limit.env)).join('\n')}
  --help, -h                 this text

Logs are JSON lines on standard error (MCP_AGENT_LOG_LEVEL), one access line per request.`;

let values: ReturnType<typeof parse>['values'];
try {
  values = parse().values;
} catch (thrown) {
  process.stderr.write(
    `mcp-agent-server: ${(thrown as Error).message}. Run "mcp-agent-server --help".\n`,
  );
  process.exit(2);
}
if (values.help === true) {
  process.stdout.write(`${HELP}\n`);
  process.exit(0);
}
try {
  // Loaded after the flags are read, so --help and a bad flag answer at once.
  const [
    { openAgentStack },
    { MULTI_TENANT_POLICY, openDatabase },
    { readStdioAllowlist },
    { checkPublicUrl },
    { serveHttpApi },
    { readAuthConfig },
    { OperatorToken },
    { startTelemetry },
    { LogBuffer },
    { wireModeFrom },
  ] = await Promise.all([
    import('@mcp-agent/agent'),
    import('@mcp-agent/registry'),
    import('./api/stdio-allowlist.js'),
    import('./api/public-url.js'),
    import('./api/serve-api.js'),
    import('./auth/auth-config.js'),
    import('./auth/operator-token.js'),
    import('./telemetry/start-telemetry.js'),
    import('./ui/log-buffer.js'),
    import('@mcp-agent/wire'),
  ]);
  const rawPort = values.port ?? process.env.PORT ?? '8080';
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port > 65_535)
    throw new ConfigError(
      `--port must be a whole number from 0 to 65535, not "${rawPort.slice(0, 20)}"`,
    );
  // Telemetry first, so every span and metric of the stack reaches the SDK; logs also feed the UI.
  const telemetry = await startTelemetry();
  const logs = new LogBuffer({ forward: process.stderr });
  const logger = createLogger({ destination: logs });
  const operator = OperatorToken.fromConfig(values['operator-token-file'], process.env);
  if (values['migrate-only'] === true) {
    // The deployment's one migration step: run it once, before starting (or upgrading) the
    // processes, which then start with --skip-migrations.
    const database = await openDatabase({
      ...(values.home === undefined ? {} : { home: values.home }),
    });
    await database.close();
    logger.info({ database: database.location }, 'database migrated');
    await telemetry.shutdown();
    process.exit(0);
  }
  const limits = readOperatorLimits(values, process.env);
  const rawDrain = values['drain-ms'] ?? process.env.MCP_AGENT_DRAIN_MS ?? '30000';
  const drainMs = Number(rawDrain);
  if (!/^\d+$/.test(rawDrain) || !Number.isSafeInteger(drainMs))
    throw new ConfigError(
      `--drain-ms (MCP_AGENT_DRAIN_MS) must be a whole number of milliseconds, not "${rawDrain.slice(0, 20)}"`,
    );
  // Many users: no tenant runs a command on this host unless the operator lists it, and tenant
  // servers must be public https.
  const allowlist = values['stdio-allowlist'] ?? process.env.MCP_AGENT_STDIO_ALLOWLIST;
  const publicUrl = values['public-url'] ?? process.env.MCP_AGENT_PUBLIC_URL;
  const trustProxy = values['trust-proxy'] ?? process.env.MCP_AGENT_TRUST_PROXY === '1';
  const auth = readAuthConfig(values, process.env, {
    ...(publicUrl === undefined || publicUrl === ''
      ? {}
      : { publicUrl: checkPublicUrl(publicUrl) }),
    logger,
  });
  // App servers: every user has them, from the operator's mcpServers (or VS Code) file, with
  // ${ENV} interpolation; the same file on every process of a deployment.
  const serversFile = values.servers ?? process.env.MCP_AGENT_SERVERS_FILE;
  const appServers =
    serversFile === undefined || serversFile === ''
      ? []
      : parseServerConfigFile(readFileSync(serversFile, 'utf8'), { source: serversFile }).servers;
  // MCP_AGENT_WIRE=sdk: the gateway and the pool on the MCP SDK alone; read once, here.
  const wire = wireModeFrom(process.env);
  const stack = await openAgentStack({
    appServers,
    ...(values.home === undefined ? {} : { home: values.home }),
    logger,
    userServers:
      allowlist === undefined
        ? MULTI_TENANT_POLICY
        : { stdio: readStdioAllowlist(allowlist), remote: 'public' },
    limits: limits.agent,
    pool: { ...limits.pool, wire },
    ...(limits.knowledge === undefined ? {} : { knowledge: limits.knowledge }),
    ...(limits.toolCalls === undefined ? {} : { rateLimits: { default: limits.toolCalls } }),
    migrate: !(values['skip-migrations'] === true || process.env.MCP_AGENT_SKIP_MIGRATIONS === '1'),
  });
  const api = await serveHttpApi({
    stack,
    verifier: auth.verifier,
    port,
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(publicUrl === undefined || publicUrl === '' ? {} : { publicUrl }),
    trustProxy,
    gatewayJsonAnswers:
      values['gateway-json-answers'] ?? process.env.MCP_AGENT_GATEWAY_JSON_ANSWERS === '1',
    limits: limits.server,
    tasks: limits.tasks,
    wire,
    logger,
    mcpRegistryUrl: values['mcp-registry-url'] ?? process.env.MCP_AGENT_MCP_REGISTRY_URL,
    observability: { telemetry, logs, ...(operator === undefined ? {} : { operator }) },
  });
  telemetry.observe({ pool: stack.pool, gateway: api.gateway });
  logger.info({ url: api.url, signIn: auth.description }, 'mcp-agent API and gateway listening');
  // Graceful: unready, take nothing new, let calls and tasks finish (up to --drain-ms), cancel
  // what is left, then close. A second signal ends the process at once.
  const stop = async (signal: string) => {
    logger.info({ signal, drainMs }, 'draining: no new work; waiting for calls and tasks');
    const outcome = await api.drain(drainMs);
    logger.info(outcome, 'drained; closing');
    auth.close();
    await api.close();
    await stack.close();
    await telemetry.shutdown();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
} catch (thrown) {
  process.stderr.write(`mcp-agent-server: ${toMcpAgentError(thrown).message}\n`);
  process.exit(2);
}

// A flag and its variable in the help's columns; a flag too long for its column gets its own line.
function flagLine(flag: string, env: string): string {
  return flag.length < 27 ? `  ${flag.padEnd(27)}${env}` : `  ${flag}\n${' '.repeat(29)}${env}`;
}

function parse() {
  return parseArgs({
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      port: { type: 'string' },
      host: { type: 'string' },
      home: { type: 'string' },
      'stdio-allowlist': { type: 'string' },
      'public-url': { type: 'string' },
      'trust-proxy': { type: 'boolean' },
      'gateway-json-answers': { type: 'boolean' },
      'mcp-registry-url': { type: 'string' },
      'operator-token-file': { type: 'string' },
      servers: { type: 'string' },
      'migrate-only': { type: 'boolean' },
      'skip-migrations': { type: 'boolean' },
      'drain-ms': { type: 'string' },
      ...LIMIT_FLAG_OPTIONS,
      ...AUTH_FLAG_OPTIONS,
    },
  });
}
