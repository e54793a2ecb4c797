import { runDispatchBenchmark } from './dispatch.js';
import { runSandboxBenchmark } from './sandbox.js';

// Entry point of `pnpm bench dispatch [--tracing]|sandbox` for this package.
const runs: Record<string, () => Promise<Record<string, unknown>>> = {
  dispatch: () => runDispatchBenchmark({ tracing: process.argv.includes('--tracing') }),
  sandbox: runSandboxBenchmark,
};
const run = runs[process.argv[2] ?? ''];
if (run === undefined) {
  console.error(`usage: pnpm bench ${Object.keys(runs).join('|')}`);
  process.exit(2);
}
console.log(JSON.stringify(await run()));
