// The floor of a stdio gateway built on the MCP SDK, for `pnpm bench gateway`: the SDK's server
// on stdin/stdout, whose `call_tool` forwards to an SDK client of server-everything, and nothing
// else (no validation, limits, usage or tracing). Run as `node sdk-gateway.js <server script>`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const upstream = new Client({ name: 'sdk-gateway', version: '1' });
await upstream.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [process.argv[2] as string],
    stderr: 'ignore',
  }),
);
const server = new Server({ name: 'sdk-gateway', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments as { tool_id: string; arguments: Record<string, unknown> };
  const result = await upstream.callTool({
    name: args.tool_id.slice(args.tool_id.indexOf('.') + 1),
    arguments: args.arguments,
  });
  return { content: [{ type: 'text', text: JSON.stringify(result) }] } as CallToolResult;
});
await server.connect(new StdioServerTransport());
process.stdin.once('end', () => void upstream.close().finally(() => process.exit(0)));
