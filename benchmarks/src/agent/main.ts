import { runAgentBenchmark } from './agent.js';

// Entry point of `pnpm bench agent` for this package.
if (process.argv[2] !== 'agent') {
  console.error('usage: pnpm bench agent');
  process.exit(2);
}
console.log(JSON.stringify(await runAgentBenchmark()));
