import { runPoolBenchmark } from './pool.js';

// Entry point of `pnpm bench pool` for this package.
const [kind] = process.argv.slice(2);
if (kind !== 'pool') {
  console.error('usage: pnpm bench pool');
  process.exit(2);
}
console.log(JSON.stringify(await runPoolBenchmark()));
