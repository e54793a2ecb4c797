import { parseArgs } from 'node:util';
import { runBrowseBenchmark } from './browse.js';
import { runContextBenchmark } from './context.js';
import { fusionFlags } from './embedding-fusion.js';
import { runNoMatchBenchmark } from './no-match.js';
import { runReachabilityBenchmark } from './reachability.js';
import { runRetrievalBenchmark, type RetrievalEmbedding } from './retrieval.js';
import { runSearchSpeedBenchmark } from './search-speed.js';
import { runSearchTenantsBenchmark } from './search-tenants.js';

// Entry point of `pnpm bench retrieval|no-match|context|browse|search-speed|search-tenants <folder…>`
// and `pnpm bench reachability [set-file]` (its recorded dev set by default).
const [kind, ...args] = process.argv.slice(2);
const runs: Record<string, (...args: string[]) => unknown> = {
  retrieval: (folder, ...flags) => runRetrievalBenchmark(folder as string, embeddingFlags(flags)),
  context: runContextBenchmark,
  browse: runBrowseBenchmark,
  'no-match': runNoMatchBenchmark,
  reachability: runReachabilityBenchmark,
  'search-speed': runSearchSpeedBenchmark,
  'search-tenants': (folder, counts) =>
    runSearchTenantsBenchmark(
      folder as string,
      counts === undefined ? undefined : counts.split(',').map(Number),
    ),
};
const run = kind === undefined ? undefined : runs[kind];
if (run === undefined || (args.length === 0 && kind !== 'reachability')) {
  console.error(
    `usage: pnpm bench ${Object.keys(runs).join('|')} <folder of ../shared/bench> [more folders]`,
  );
  process.exit(2);
}
console.log(JSON.stringify(await run(...args)));

// `--embedder <url> --embedding-model <name> [--embedding-weights 0.2,0.5] [--embedding-cache <file>]
// [--embedding-slot <k>] [--embedding-gate <relevance>]`.
function embeddingFlags(flags: string[]): RetrievalEmbedding | undefined {
  const { values } = parseArgs({
    args: flags,
    options: {
      embedder: { type: 'string' },
      'embedding-model': { type: 'string' },
      'embedding-weights': { type: 'string' },
      'embedding-cache': { type: 'string' },
      'embedding-slot': { type: 'string' },
      'embedding-gate': { type: 'string' },
    },
  });
  if (values.embedder === undefined) return undefined;
  const model = values['embedding-model'];
  if (model === undefined) {
    console.error('--embedder needs --embedding-model <name>, the model the endpoint serves');
    process.exit(2);
  }
  const weights = values['embedding-weights']?.split(',').map(Number);
  if (weights !== undefined && weights.some((w) => !(w >= 0 && w <= 1))) {
    console.error('--embedding-weights takes numbers from 0 to 1, comma-separated');
    process.exit(2);
  }
  const { slot, gate } = fusionFlags(values['embedding-slot'], values['embedding-gate']);
  return {
    url: values.embedder,
    model,
    ...(weights === undefined ? {} : { weights }),
    ...(values['embedding-cache'] === undefined ? {} : { cacheFile: values['embedding-cache'] }),
    ...(slot === undefined ? {} : { slot }),
    ...(gate === undefined ? {} : { gate }),
  };
}
