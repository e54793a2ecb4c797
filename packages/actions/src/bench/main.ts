import { runDispatchBenchmark } from './dispatch.js';

// Entry point of `pnpm bench dispatch` for this package.
if (process.argv[2] !== 'dispatch') {
  console.error('usage: pnpm bench dispatch');
  process.exit(2);
}
console.log(JSON.stringify(await runDispatchBenchmark()));
