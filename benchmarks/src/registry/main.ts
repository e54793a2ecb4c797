import { runPoolBenchmark } from './pool.js';
import { runSqliteLockBenchmark } from './sqlite-lock.js';

// Entry point of `pnpm bench pool` and `pnpm bench sqlite-lock` for this package.
const [kind] = process.argv.slice(2);
if (kind === 'pool') console.log(JSON.stringify(await runPoolBenchmark()));
else if (kind === 'sqlite-lock') console.log(JSON.stringify(await runSqliteLockBenchmark()));
else {
  console.error('usage: pnpm bench pool|sqlite-lock');
  process.exit(2);
}
