#!/usr/bin/env node
// The HTTP API and gateway as a process: node apps/server/dist/main.js --port 8080 --tokens tokens.json
// (or --issuer https://login.example.com --public-url https://agent.example.com for JWTs).
// `--migrate-only` migrates the database and exits; `--skip-migrations` refuses a schema that
// is behind instead of migrating it. SIGTERM drains (see the README's deployment recipe).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createLogger, parseServerConfigFile, toMcpAgentError } from '@mcp-agent/core';
import { openAgentStack } from '@mcp-agent/agent';
import { MULTI_TENANT_POLICY, openDatabase } from '@mcp-agent/registry';
import { readStdioAllowlist } from './api/stdio-allowlist.js';
import { checkPublicUrl } from './api/public-url.js';
import { serveHttpApi } from './api/serve-api.js';
import { AUTH_FLAG_OPTIONS, readAuthConfig } from './auth/auth-config.js';
import { LIMIT_FLAG_OPTIONS, readOperatorLimits } from './operator-limits.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    home: { type: 'string' },
    'stdio-allowlist': { type: 'string' },
    servers: { type: 'string' },
    'public-url': { type: 'string' },
    'trust-proxy': { type: 'boolean' },
    'migrate-only': { type: 'boolean' },
    'skip-migrations': { type: 'boolean' },
    'drain-ms': { type: 'string' },
    ...LIMIT_FLAG_OPTIONS,
    ...AUTH_FLAG_OPTIONS,
  },
});
try {
  const logger = createLogger();
  if (values['migrate-only'] === true) {
    // The deployment's one migration step: run it once, before starting (or upgrading) the
    // processes, which then start with --skip-migrations.
    const database = await openDatabase({
      ...(values.home === undefined ? {} : { home: values.home }),
    });
    await database.close();
    logger.info({ database: database.location }, 'database migrated');
    process.exit(0);
  }
  const limits = readOperatorLimits(values, process.env);
  const drainMs = Number(values['drain-ms'] ?? process.env.MCP_AGENT_DRAIN_MS ?? 30_000);
  if (!Number.isSafeInteger(drainMs) || drainMs < 0)
    throw new Error(
      `--drain-ms (MCP_AGENT_DRAIN_MS) must be a whole number of milliseconds; got "${String(values['drain-ms'] ?? process.env.MCP_AGENT_DRAIN_MS)}".`,
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
  const stack = await openAgentStack({
    appServers,
    ...(values.home === undefined ? {} : { home: values.home }),
    logger,
    userServers:
      allowlist === undefined
        ? MULTI_TENANT_POLICY
        : { stdio: readStdioAllowlist(allowlist), remote: 'public' },
    limits: limits.agent,
    ...(limits.toolCalls === undefined ? {} : { rateLimits: { default: limits.toolCalls } }),
    migrate: !(values['skip-migrations'] === true || process.env.MCP_AGENT_SKIP_MIGRATIONS === '1'),
  });
  const api = await serveHttpApi({
    stack,
    verifier: auth.verifier,
    port: Number(values.port ?? process.env.PORT ?? 8080),
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(publicUrl === undefined || publicUrl === '' ? {} : { publicUrl }),
    trustProxy,
    limits: limits.server,
    tasks: limits.tasks,
    logger,
  });
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
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
} catch (thrown) {
  process.stderr.write(`mcp-agent-server: ${toMcpAgentError(thrown).message}\n`);
  process.exit(2);
}
