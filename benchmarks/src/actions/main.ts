import { runDispatchBenchmark } from './dispatch.js';
import { runResultSizesBenchmark } from './result-sizes.js';
import { runSandboxBenchmark } from './sandbox.js';

// Entry point of `pnpm bench dispatch [--tracing]|sandbox|result-sizes` for this package.
const runs: Record<string, () => Promise<Record<string, unknown>>> = {
  dispatch: () => runDispatchBenchmark({ tracing: process.argv.includes('--tracing') }),
  sandbox: runSandboxBenchmark,
  'result-sizes': runResultSizesBenchmark,
};
const run = runs[process.argv[2] ?? ''];
if (run === undefined) {
  console.error(`usage: pnpm bench ${Object.keys(runs).join('|')}`);
  process.exit(2);
}
console.log(JSON.stringify(await run()));
