import { runContextBenchmark } from './context.js';
import { runNoMatchBenchmark } from './no-match.js';
import { runRetrievalBenchmark } from './retrieval.js';
import { runSearchSpeedBenchmark } from './search-speed.js';
import { runSearchTenantsBenchmark } from './search-tenants.js';

// Entry point of `pnpm bench retrieval|no-match|context|search-speed|search-tenants <folder…>`.
const [kind, ...args] = process.argv.slice(2);
const runs: Record<string, (...args: string[]) => unknown> = {
  retrieval: (folder) => runRetrievalBenchmark(folder as string),
  context: runContextBenchmark,
  'no-match': runNoMatchBenchmark,
  'search-speed': runSearchSpeedBenchmark,
  'search-tenants': (folder, counts) =>
    runSearchTenantsBenchmark(
      folder as string,
      counts === undefined ? undefined : counts.split(',').map(Number),
    ),
};
const run = kind === undefined ? undefined : runs[kind];
if (run === undefined || args.length === 0) {
  console.error(
    `usage: pnpm bench ${Object.keys(runs).join('|')} <folder of ../shared/bench> [more folders]`,
  );
  process.exit(2);
}
console.log(JSON.stringify(await run(...args)));
