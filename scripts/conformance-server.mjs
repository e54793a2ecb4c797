// Runs the official MCP conformance suite's server scenarios that apply to a gateway against
// `mcp-agent serve --http` (single-user mode on loopback) and prints one summary line.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { report, runScenario } from './lib/run-conformance.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const suite = join(
  root,
  'apps/server/node_modules/@modelcontextprotocol/conformance/dist/index.js',
);
const scenarios = [
  'server-initialize',
  'ping',
  'logging-set-level',
  'tools-list',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];

const home = mkdtempSync(join(tmpdir(), 'mcp-conf-'));
const gateway = spawn(
  process.execPath,
  [
    join(root, 'apps/cli/dist/cli.js'),
    '--home',
    home,
    '--user',
    'conformance',
    'serve',
    '--http',
    '0',
  ],
  {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
  },
);
const url = await new Promise((resolve, reject) => {
  let seen = '';
  const timer = setTimeout(() => reject(new Error(`the gateway did not start: ${seen}`)), 30_000);
  gateway.stderr.on('data', (chunk) => {
    seen += chunk;
    const match = /MCP gateway on (\S+)/.exec(seen);
    if (match) {
      clearTimeout(timer);
      resolve(match[1]);
    }
  });
});

const run = (scenario) => runScenario(suite, ['server', '--url', url], scenario);

const results = [];
for (const scenario of scenarios) results.push(await run(scenario));
// Its home goes once it has exited and let go of its database.
const exited =
  gateway.exitCode === null && gateway.signalCode === null
    ? new Promise((resolve) => gateway.once('exit', resolve))
    : Promise.resolve();
gateway.kill('SIGTERM');
await exited;
rmSync(home, { recursive: true, force: true });
process.exit(report('conformance-server', results) ? 0 : 1);
