// Runs the official MCP conformance suite's server scenarios that apply to a gateway against
// `mcp-agent serve --http` (single-user mode on loopback) and prints one summary line.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

const gateway = spawn(
  process.execPath,
  [
    join(root, 'apps/cli/dist/cli.js'),
    '--home',
    mkdtempSync(join(tmpdir(), 'mcp-conf-')),
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

function run(scenario) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [suite, 'server', '--url', url, '--scenario', scenario], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const checks = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(output);
      resolve({
        scenario,
        passed: code === 0 && checks !== null && checks[3] === '0',
        checks: checks ? `${checks[1]}/${checks[2]}` : '?',
        output,
      });
    });
  });
}

const results = [];
for (const scenario of scenarios) results.push(await run(scenario));
gateway.kill('SIGTERM');
for (const result of results) {
  console.log(
    `${result.passed ? 'pass' : 'FAIL'}  ${result.scenario.padEnd(30)} checks ${result.checks}`,
  );
  if (!result.passed)
    console.log(
      result.output
        .split('\n')
        .filter((l) => /FAIL|Error/.test(l))
        .slice(0, 6)
        .join('\n'),
    );
}
const passed = results.filter((r) => r.passed).length;
console.log(`conformance-server: ${passed} passed, ${results.length - passed} failed`);
process.exit(passed === results.length ? 0 : 1);
