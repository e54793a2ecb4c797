// `pnpm bench <name> [args…]`: runs a benchmark of the private benchmarks/ package from its
// build/ (one folder per area; `tsc --build` compiles it). Each prints one JSON object on its
// last line.
import { spawnSync } from 'node:child_process';

const benches = {
  retrieval: 'benchmarks/build/knowledge/main.js',
  context: 'benchmarks/build/knowledge/main.js',
  browse: 'benchmarks/build/knowledge/main.js',
  'no-match': 'benchmarks/build/knowledge/main.js',
  reachability: 'benchmarks/build/knowledge/main.js',
  'search-speed': 'benchmarks/build/knowledge/main.js',
  'search-tenants': 'benchmarks/build/knowledge/main.js',
  pool: 'benchmarks/build/registry/main.js',
  'sqlite-lock': 'benchmarks/build/registry/main.js',
  dispatch: 'benchmarks/build/actions/main.js',
  sandbox: 'benchmarks/build/actions/main.js',
  'result-sizes': 'benchmarks/build/actions/main.js',
  agent: 'benchmarks/build/agent/main.js',
  served: 'benchmarks/build/server/main.js',
  gateway: 'benchmarks/build/server/main.js',
  ui: 'benchmarks/build/server/main.js',
  scale: 'benchmarks/build/server/main.js',
  'load-03': 'benchmarks/build/server/main.js',
  'load-05': 'benchmarks/build/server/main.js',
  'load-06': 'benchmarks/build/server/main.js',
  soak: 'benchmarks/build/server/main.js',
  'cold-start': 'benchmarks/build/server/main.js',
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
