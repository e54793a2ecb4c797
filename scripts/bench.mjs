// `pnpm bench <name> [args…]`: runs a package's benchmark from its build. Each prints one JSON
// object on its last line.
import { spawnSync } from 'node:child_process';

const benches = {
  retrieval: 'packages/knowledge/dist/bench/main.js',
  context: 'packages/knowledge/dist/bench/main.js',
  'search-speed': 'packages/knowledge/dist/bench/main.js',
  pool: 'packages/registry/dist/bench/main.js',
  'sqlite-lock': 'packages/registry/dist/bench/main.js',
  dispatch: 'packages/actions/dist/bench/main.js',
  sandbox: 'packages/actions/dist/bench/main.js',
  agent: 'packages/agent/dist/bench/main.js',
  served: 'apps/server/dist/bench/main.js',
};
const [name, ...args] = process.argv.slice(2);
const entry = benches[name];
if (entry === undefined) {
  console.error(`usage: pnpm bench <${Object.keys(benches).join('|')}> [args…]`);
  process.exit(2);
}
const { status } = spawnSync(process.execPath, [entry, name, ...args], { stdio: 'inherit' });
process.exit(status ?? 1);
