import { runContextBenchmark } from './context.js';
import { runRetrievalBenchmark } from './retrieval.js';
import { runSearchSpeedBenchmark } from './search-speed.js';

// Entry point of `pnpm bench retrieval|context|search-speed <folder…>` for this package.
const [kind, ...folders] = process.argv.slice(2);
const runs: Record<string, (...folders: string[]) => Record<string, unknown>> = {
  retrieval: (folder) => runRetrievalBenchmark(folder as string),
  context: runContextBenchmark,
  'search-speed': runSearchSpeedBenchmark,
};
const run = kind === undefined ? undefined : runs[kind];
if (run === undefined || folders.length === 0) {
  console.error(
    `usage: pnpm bench ${Object.keys(runs).join('|')} <folder of ../shared/bench> [more folders]`,
  );
  process.exit(2);
}
console.log(JSON.stringify(run(...folders)));
