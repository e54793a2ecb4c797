import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Logger } from '@mcp-agent/core';
import type { AgentStack } from '@mcp-agent/agent';
import { createGatewayServer } from './gateway-server.js';

/** Serves the gateway over stdin/stdout for one user (what `mcp-agent serve --stdio` runs). */
export async function serveStdioGateway(options: {
  stack: AgentStack;
  userId: string;
  logger?: Logger;
}): Promise<() => Promise<void>> {
  const server = createGatewayServer(options);
  await server.connect(new StdioServerTransport());
  return () => server.close();
}
