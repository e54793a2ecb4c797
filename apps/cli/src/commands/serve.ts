import type { AgentContext } from '@mcp-agent/core';
import type { AgentStack } from '@mcp-agent/agent';
import type { WireMode } from '@mcp-agent/wire';
import { usage, wholeNumber, type Invocation } from '../invocation.js';

/** serve --stdio | --http <port>: the MCP gateway. */
export async function serve(
  cli: Invocation,
  stack: AgentStack,
  ctx: AgentContext,
  wire: WireMode = 'lanes',
): Promise<'done' | 'serving'> {
  const { values } = cli;
  // The gateway (hono, the MCP SDK's server) is loaded only for this command.
  const { serveHttpGateway, serveStdioGateway, TokenFileVerifier } =
    await import('@mcp-agent/server');
  if (values.stdio === true) {
    // When the client closes stdin the command is done: the caller closes the stack (MCP
    // servers, sandbox workers) and exits, leaving nothing behind.
    const gateway = await serveStdioGateway({ stack, userId: ctx.userId, wire });
    await gateway.closed;
    return 'done';
  }
  if (values.http === undefined) usage('serve needs --stdio or --http <port>', 'serve');
  const port = wholeNumber(values, 'http', { min: 0, max: 65_535, fallback: 0 });
  // Re-read on change: "mcp-agent tokens add | revoke" takes effect without a restart.
  const verifier =
    values.tokens === undefined ? undefined : TokenFileVerifier.open(String(values.tokens));
  const served = await serveHttpGateway({
    stack,
    port,
    wire,
    ...(verifier === undefined ? { singleUser: ctx.userId } : { verifier }),
  });
  process.stderr.write(
    `MCP gateway on ${served.url} (${verifier === undefined ? `user ${ctx.userId}` : 'bearer tokens'})\n`,
  );
  return 'serving';
}
