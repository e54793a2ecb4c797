import { randomBytes } from 'node:crypto';
import { createLogger } from '@mcp-agent/core';
import { openAgentStack } from '@mcp-agent/agent';
import {
  LogBuffer,
  OperatorToken,
  serveHttpApi,
  startTelemetry,
  StaticTokenVerifier,
} from '@mcp-agent/server';
import { wireModeFrom } from '@mcp-agent/wire';
import { usage, type Invocation } from '../invocation.js';

// Warnings and errors still reach the terminal; every line reaches the UI's log view.
const TERMINAL_LEVEL = /"level":(4|5|6)\d/;

/**
 * ui [--port <n>]: the web UI (servers, tools, search, tasks, MCP traces, logs) for one user on
 * 127.0.0.1, with a random token in the printed URL. The token is also this process's operator
 * token, so the person who started it sees its figures and metrics. Serves until Ctrl-C.
 */
export async function ui(cli: Invocation, userId: string, home: { home?: string }): Promise<void> {
  const port = Number(cli.values.port ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) usage('--port is a port number');
  // Telemetry first, so the stack's spans and metrics reach it.
  const telemetry = await startTelemetry({ serviceName: 'mcp-agent-ui' });
  const logs = new LogBuffer({
    forward: { write: (line: string) => TERMINAL_LEVEL.test(line) && process.stderr.write(line) },
  });
  const logger = createLogger({ level: 'debug', destination: logs });
  // MCP_AGENT_WIRE=sdk: the pool and the gateway on the MCP SDK alone; read once, here.
  const wire = wireModeFrom(process.env);
  const stack = await openAgentStack({ ...home, logger, pool: { wire } });
  const token = randomBytes(32).toString('base64url');
  const served = await serveHttpApi({
    stack,
    port,
    host: '127.0.0.1',
    verifier: new StaticTokenVerifier({ [token]: userId }),
    // One user, on loopback, running their own servers.
    trustTenantCommands: true,
    wire,
    logger,
    observability: { telemetry, logs, operator: new OperatorToken(token) },
  });
  telemetry.observe({ pool: stack.pool, gateway: served.gateway });
  const url = `${served.url}/ui/#token=${token}`;
  cli.out(`mcp-agent UI for ${userId}: ${url}\n(open it in a browser; Ctrl-C stops it)`, {
    url,
    userId,
  });
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await served.close();
  await stack.close();
  await telemetry.shutdown();
}
