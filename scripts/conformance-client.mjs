// Runs the official MCP conformance suite's client scenarios against our client entry point
// (packages/registry/dist/bin/conformance-client.js) and prints one summary line. The scenarios
// are those of spec 2025-06-18 and 2025-11-25 that a client must pass.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const registry = fileURLToPath(new URL('../packages/registry/', import.meta.url));
const suite = `${registry}node_modules/@modelcontextprotocol/conformance/dist/index.js`;
const client = `node ${registry}dist/bin/conformance-client.js`;
const scenarios = [
  'initialize',
  'tools_call',
  'sse-retry',
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
];

function run(scenario) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [suite, 'client', '--command', client, '--scenario', scenario, '--timeout', '60000'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const checks = /Passed: (\d+)\/(\d+)/.exec(output);
      resolve({
        scenario,
        passed: code === 0 && /OVERALL: PASSED/.test(output),
        checks: checks ? `${checks[1]}/${checks[2]}` : '?',
        output,
      });
    });
  });
}

const results = [];
for (let i = 0; i < scenarios.length; i += 4) {
  results.push(...(await Promise.all(scenarios.slice(i, i + 4).map(run))));
}
for (const result of results) {
  console.log(
    `${result.passed ? 'pass' : 'FAIL'}  ${result.scenario.padEnd(36)} checks ${result.checks}`,
  );
  if (!result.passed)
    console.log(
      result.output
        .split('\n')
        .filter((l) => /FAIL|ERROR|failed/.test(l))
        .slice(0, 8)
        .join('\n'),
    );
}
const passed = results.filter((r) => r.passed).length;
console.log(`conformance: ${passed} passed, ${results.length - passed} failed`);
process.exit(passed === results.length ? 0 : 1);
