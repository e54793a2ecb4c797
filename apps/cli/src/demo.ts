import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { McpAgentError, parseServerConfigFile, type ServerConfig } from '@mcp-agent/core';

// The demo grows with the project. Today it shows what exists: validating an mcpServers
// file through @mcp-agent/core, and the one-line error a broken file gets.
const examples = fileURLToPath(new URL('../../../examples/', import.meta.url));
const file = process.argv[2] ?? `${examples}mcp-servers.json`;

function describe(server: ServerConfig): string {
  const where =
    server.transport === 'stdio'
      ? `${server.command} ${server.args.map((a) => a.replace(/.*node_modules\//, '…/')).join(' ')}`
      : server.url;
  return `  ${server.id.padEnd(12)} ${server.transport.padEnd(16)} ${where}`;
}

console.log('mcp-agent demo: configuration (the agent itself is not built yet)\n');
console.log(`Reading ${file}`);
const parsed = parseServerConfigFile(readFileSync(file, 'utf8'), {
  source: file,
  env: { ...process.env, MCP_AGENT_DEMO_MODULES: 'node_modules' },
});
console.log(`Format: ${parsed.format}; ${parsed.servers.length} servers validated:`);
for (const server of parsed.servers) console.log(describe(server));

console.log('\nA broken file is refused whole, with every bad path named and no secret echoed:');
const broken = {
  mcpServers: {
    'my.server': { command: 'node' },
    github: {
      type: 'http',
      url: 'not a url',
      headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' },
    },
    local: { command: '' },
  },
};
try {
  parseServerConfigFile(broken, { source: 'broken.json', env: {} });
} catch (error) {
  if (!McpAgentError.isInstance(error)) throw error;
  console.log(`  ${error.code}: ${error.message}`);
}
