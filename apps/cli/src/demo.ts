import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createContext, createLogger, McpAgentError, type ServerConfig } from '@mcp-agent/core';
import { openRegistry, RegistryManager } from '@mcp-agent/registry';

// The demo grows with the project; today it shows what exists: config validation (core) and
// the registry on the embedded SQLite default (servers, tenancy, the vault). Connecting to the
// servers, search and the agent arrive with the issues that build them.
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const file = process.argv[2] ?? join(repo, 'examples', 'mcp-servers.json');
const home = process.env.MCP_AGENT_HOME ?? join(repo, '.mcp-agent');

const registry = await openRegistry({ home, logger: createLogger({ level: 'warn' }) });
try {
  const alice = createContext({ userId: 'demo-alice' });
  const bob = createContext({ userId: 'demo-bob' });
  console.log(`mcp-agent demo — registry at ${home} (SQLite, the embedded default)\n`);

  console.log(`1. Import ${file} for user ${alice.userId}`);
  const result = await registry.importServers(alice, readFileSync(file, 'utf8'), {
    source: file,
    env: { ...process.env, MCP_AGENT_DEMO_MODULES: join(repo, 'node_modules') },
  });
  console.log(`   imported ${result.imported.join(', ')}`);

  console.log(`\n2. ${alice.userId}'s servers (readiness arrives with the connection pool):`);
  for (const server of await new RegistryManager(registry).getAvailableProviders(alice)) {
    console.log(`   ${server.id.padEnd(12)} ${server.transport.padEnd(16)} ${server.status}`);
  }
  console.log(
    `   ${bob.userId} sees ${(await registry.activeServers(bob)).length} of them: tenants never share servers.`,
  );

  console.log(
    '\n3. Secrets stay in the vault (AES-256-GCM); the stored config keeps only their names:',
  );
  const stored = await registry.connections.get(alice, 'docs-search');
  console.log(`   stored:   ${JSON.stringify(stored.config)}`);
  const resolved = (await registry.resolveServer(alice, 'docs-search')) as ServerConfig & {
    headers: object;
  };
  console.log(
    `   resolved: headers ${Object.keys(resolved.headers).join(', ')} decrypted for the pool only`,
  );

  console.log('\n4. A broken file is refused whole, every bad path named, nothing written:');
  const broken = {
    mcpServers: {
      'my.server': { command: 'node' },
      github: {
        type: 'http',
        url: 'not a url',
        headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' },
      },
    },
  };
  try {
    await registry.importServers(bob, broken, { source: 'broken.json', env: {} });
  } catch (error) {
    if (!McpAgentError.isInstance(error)) throw error;
    console.log(`   ${error.code}: ${error.message}`);
  }
  console.log(`   ${bob.userId} still has ${(await registry.activeServers(bob)).length} servers.`);
} finally {
  await registry.close();
}
