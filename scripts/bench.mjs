// `pnpm bench <name> [args…]`: runs a package's benchmark from its build/ (compiled by its
// tsconfig.bench.json, never into the published dist/). Each prints one JSON
// object on its last line.
import { spawnSync } from 'node:child_process';

const benches = {
  retrieval: 'packages/knowledge/build/bench/main.js',
  context: 'packages/knowledge/build/bench/main.js',
  browse: 'packages/knowledge/build/bench/main.js',
  'no-match': 'packages/knowledge/build/bench/main.js',
  reachability: 'packages/knowledge/build/bench/main.js',
  'search-speed': 'packages/knowledge/build/bench/main.js',
  'search-tenants': 'packages/knowledge/build/bench/main.js',
  pool: 'packages/registry/build/bench/main.js',
  'sqlite-lock': 'packages/registry/build/bench/main.js',
  dispatch: 'packages/actions/build/bench/main.js',
  sandbox: 'packages/actions/build/bench/main.js',
  'result-sizes': 'packages/actions/build/bench/main.js',
  agent: 'packages/agent/build/bench/main.js',
  served: 'apps/server/build/bench/main.js',
  gateway: 'apps/server/build/bench/main.js',
  ui: 'apps/server/build/bench/main.js',
  scale: 'apps/server/build/bench/main.js',
  'load-03': 'apps/server/build/bench/main.js',
  'load-05': 'apps/server/build/bench/main.js',
  'load-06': 'apps/server/build/bench/main.js',
  soak: 'apps/server/build/bench/main.js',
  'cold-start': 'apps/server/build/bench/main.js',
  // The task suite is the CLI's `eval` (see apps/cli/README.md).
  tasks: ['apps/cli/dist/mcp-agent.js', 'eval'],
};
const [name, ...args] = process.argv.slice(2);
const entry = benches[name];
if (entry === undefined) {
  console.error(`usage: pnpm bench <${Object.keys(benches).join('|')}> [args…]`);
  process.exit(2);
}
const command = Array.isArray(entry) ? [...entry, ...args] : [entry, name, ...args];
const { status } = spawnSync(process.execPath, command, { stdio: 'inherit' });
process.exit(status ?? 1);
