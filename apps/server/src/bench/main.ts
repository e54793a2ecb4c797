import { parseArgs } from 'node:util';
import { runServedBenchmark } from './served.js';

// Entry point of `pnpm bench served [--results 4500] [--sessions 6000]`.
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { results: { type: 'string' }, sessions: { type: 'string' } },
});
if (positionals[0] !== 'served') {
  console.error('usage: pnpm bench served [--results 4500] [--sessions 6000]');
  process.exit(2);
}
console.log(
  JSON.stringify(
    await runServedBenchmark({
      ...(values.results === undefined ? {} : { results: Number(values.results) }),
      ...(values.sessions === undefined ? {} : { sessions: Number(values.sessions) }),
    }),
  ),
);
