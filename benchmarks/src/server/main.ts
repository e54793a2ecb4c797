import { parseArgs } from 'node:util';
import { runLoad05 } from './chaos.js';
import { runColdStart } from './cold-start.js';
import { runGatewayBenchmark } from './gateway.js';
import { runLoad06 } from './noisy-neighbour.js';
import { runLoad03, runScaleBenchmark } from './scale.js';
import { runServedBenchmark } from './served.js';
import { runSoak } from './soak.js';
import { runUiLoadBenchmark } from './ui-load.js';

// Entry point of `pnpm bench gateway [--calls 2000] [--block 50]
// [--steady-rounds 2000] [--profile-calls 3000] [--load-calls 2000] [--concurrency 16]
// [--baseline <checkout>]`, `pnpm bench served [--results 4500] [--sessions 6000]`, `pnpm bench ui
// [--tasks 1000] [--runs 5]`, `pnpm bench scale
// [--tenants 16] [--calls 2000]`, `pnpm bench load-03 [--tenants 200] [--ramp-ms 60000]`,
// `pnpm bench load-05 [--duration-ms 60000] [--kill-every-ms 15000]` and
// `pnpm bench load-06 [--phase-ms 30000]`, `pnpm bench soak [--minutes 20] [--rate 1.2]
// [--tenants 40] [--idle-ms 60000] [--check]`, `pnpm bench cold-start [--servers 16] [--runs 3]`. The scale benchmarks need PostgreSQL
// (MCP_AGENT_BENCH_DATABASE_URL or MCP_AGENT_TEST_DATABASE_URL).
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    results: { type: 'string' },
    sessions: { type: 'string' },
    tenants: { type: 'string' },
    calls: { type: 'string' },
    'ramp-ms': { type: 'string' },
    'duration-ms': { type: 'string' },
    'kill-every-ms': { type: 'string' },
    'phase-ms': { type: 'string' },
    tasks: { type: 'string' },
    runs: { type: 'string' },
    minutes: { type: 'string' },
    rate: { type: 'string' },
    'idle-ms': { type: 'string' },
    'profile-calls': { type: 'string' },
    block: { type: 'string' },
    'steady-rounds': { type: 'string' },
    'load-calls': { type: 'string' },
    concurrency: { type: 'string' },
    check: { type: 'boolean' },
    servers: { type: 'string' },
    baseline: { type: 'string' },
  },
});
const number = (name: Exclude<keyof typeof values, 'check' | 'baseline'>) =>
  values[name] === undefined
    ? {}
    : { [name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())]: Number(values[name]) };
const benches: Record<string, () => Promise<unknown>> = {
  served: () => runServedBenchmark({ ...number('results'), ...number('sessions') }),
  gateway: () =>
    runGatewayBenchmark({
      ...number('calls'),
      ...number('block'),
      ...number('steady-rounds'),
      ...number('profile-calls'),
      ...number('load-calls'),
      ...number('concurrency'),
      ...(values.baseline === undefined ? {} : { baseline: values.baseline }),
    }),
  ui: () => runUiLoadBenchmark({ ...number('tasks'), ...number('runs') }),
  scale: () => runScaleBenchmark({ ...number('tenants'), ...number('calls') }),
  'load-03': () => runLoad03({ ...number('tenants'), ...number('ramp-ms') }),
  'load-05': () =>
    runLoad05({ ...number('tenants'), ...number('duration-ms'), ...number('kill-every-ms') }),
  'load-06': () => runLoad06({ ...number('phase-ms') }),
  'cold-start': () => runColdStart({ ...number('servers'), ...number('runs') }),
  soak: () =>
    runSoak({
      ...number('minutes'),
      ...number('rate'),
      ...number('tenants'),
      ...number('idle-ms'),
      check: values.check === true,
    }),
};
const run = benches[positionals[0] ?? ''];
if (run === undefined) {
  console.error(`usage: pnpm bench <${Object.keys(benches).join('|')}> [options]`);
  process.exit(2);
}
console.log(JSON.stringify(await run()));
// A check that failed (soak --check) set the exit code.
process.exit(process.exitCode ?? 0);
