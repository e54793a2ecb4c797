#!/usr/bin/env node
// The HTTP API and gateway as a process: node apps/server/dist/main.js --port 8080 --tokens tokens.json
// (or --issuer https://login.example.com --public-url https://agent.example.com for JWTs)
import { parseArgs } from 'node:util';
import { createLogger, toMcpAgentError } from '@mcp-agent/core';
import { openAgentStack } from '@mcp-agent/agent';
import { MULTI_TENANT_POLICY } from '@mcp-agent/registry';
import { readStdioAllowlist } from './api/stdio-allowlist.js';
import { checkPublicUrl } from './api/public-url.js';
import { serveHttpApi } from './api/serve-api.js';
import { AUTH_FLAG_OPTIONS, readAuthConfig } from './auth/auth-config.js';
import { LIMIT_FLAG_OPTIONS, readOperatorLimits } from './operator-limits.js';
import { OperatorToken } from './auth/operator-token.js';
import { startTelemetry } from './telemetry/start-telemetry.js';
import { LogBuffer } from './ui/log-buffer.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    home: { type: 'string' },
    'stdio-allowlist': { type: 'string' },
    'public-url': { type: 'string' },
    'trust-proxy': { type: 'boolean' },
    'operator-token-file': { type: 'string' },
    ...LIMIT_FLAG_OPTIONS,
    ...AUTH_FLAG_OPTIONS,
  },
});
try {
  // Telemetry first, so every span and metric of the stack reaches the SDK; logs also feed the UI.
  const telemetry = await startTelemetry();
  const logs = new LogBuffer({ forward: process.stderr });
  const logger = createLogger({ destination: logs });
  const operator = OperatorToken.fromConfig(values['operator-token-file'], process.env);
  const limits = readOperatorLimits(values, process.env);
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
  const stack = await openAgentStack({
    ...(values.home === undefined ? {} : { home: values.home }),
    logger,
    userServers:
      allowlist === undefined
        ? MULTI_TENANT_POLICY
        : { stdio: readStdioAllowlist(allowlist), remote: 'public' },
    limits: limits.agent,
  });
  const api = await serveHttpApi({
    stack,
    verifier: auth.verifier,
    port: Number(values.port ?? process.env.PORT ?? 8080),
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(publicUrl === undefined || publicUrl === '' ? {} : { publicUrl }),
    trustProxy,
    limits: limits.server,
    logger,
    observability: { telemetry, logs, ...(operator === undefined ? {} : { operator }) },
  });
  telemetry.observe({ pool: stack.pool, gateway: api.gateway });
  logger.info({ url: api.url, signIn: auth.description }, 'mcp-agent API and gateway listening');
  const stop = async () => {
    auth.close();
    await api.close();
    await stack.close();
    await telemetry.shutdown();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} catch (thrown) {
  process.stderr.write(`mcp-agent-server: ${toMcpAgentError(thrown).message}\n`);
  process.exit(2);
}
