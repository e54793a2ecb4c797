// Runs the official MCP conformance suite's client scenarios against our client entry point
// (packages/registry/build/bin/conformance-client.js) and prints one summary line. The scenarios
// are those of spec 2025-06-18 and 2025-11-25 that a client must pass, plus the 2025-03-26
// back-compatibility ones; client_credentials (machine-to-machine) is not supported.
import { fileURLToPath } from 'node:url';
import { report, runScenario } from './lib/run-conformance.mjs';

const registry = fileURLToPath(new URL('../packages/registry/', import.meta.url));
const suite = `${registry}node_modules/@modelcontextprotocol/conformance/dist/index.js`;
const client = `node ${registry}build/bin/conformance-client.js`;
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
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
];

const run = (scenario) =>
  runScenario(suite, ['client', '--command', client, '--timeout', '60000'], scenario);

const results = [];
for (let i = 0; i < scenarios.length; i += 4) {
  results.push(...(await Promise.all(scenarios.slice(i, i + 4).map(run))));
}
process.exit(report('conformance', results) ? 0 : 1);
