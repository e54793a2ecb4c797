import { parseArgs } from 'node:util';
import { runServedBenchmark } from './served.js';
import { runUiLoadBenchmark } from './ui-load.js';

// Entry point of `pnpm bench served [--results 4500] [--sessions 6000]` and
// `pnpm bench ui [--tasks 1000] [--runs 5]`.
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    results: { type: 'string' },
    sessions: { type: 'string' },
    tasks: { type: 'string' },
    runs: { type: 'string' },
  },
});
const number = (value: string | undefined) => (value === undefined ? undefined : Number(value));
if (positionals[0] === 'served') {
  const results = number(values.results);
  const sessions = number(values.sessions);
  console.log(
    JSON.stringify(
      await runServedBenchmark({
        ...(results === undefined ? {} : { results }),
        ...(sessions === undefined ? {} : { sessions }),
      }),
    ),
  );
} else if (positionals[0] === 'ui') {
  const tasks = number(values.tasks);
  const runs = number(values.runs);
  console.log(
    JSON.stringify(
      await runUiLoadBenchmark({
        ...(tasks === undefined ? {} : { tasks }),
        ...(runs === undefined ? {} : { runs }),
      }),
    ),
  );
} else {
  console.error(
    'usage: pnpm bench served [--results 4500] [--sessions 6000] | pnpm bench ui [--tasks 1000] [--runs 5]',
  );
  process.exit(2);
}
