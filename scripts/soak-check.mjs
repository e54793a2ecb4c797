// The short soak of the test command: `pnpm bench soak` for two minutes with 10 s idle timeouts,
// then one check per count that must come back once the load stops (never a timing), printed
// as "soak: N passed, M failed". The figures of a long run are the benchmark's, not this.
import { spawnSync } from 'node:child_process';

const args = ['soak', '--minutes', '2', '--tenants', '12', '--idle-ms', '10000', '--check'];
const run = spawnSync(process.execPath, ['benchmarks/build/server/main.js', ...args], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
  timeout: 5 * 60_000,
});
let report;
try {
  report = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '');
} catch {
  console.log(
    `soak: the benchmark printed no report (exit ${run.status}, ${run.signal ?? 'no signal'})`,
  );
  console.log('soak: 0 passed, 1 failed');
  process.exit(1);
}
const { retained, before, load } = report;
const checks = [
  ['no gateway session is held after idle', retained.sessions === 0],
  ['no resume event is held after idle', retained.events === 0 && retained.eventBytes === 0],
  ['no pooled connection is held after idle', retained.connections === 0],
  ['no MCP server process is left after idle', retained.mcpChildren === 0],
  ['no task is left running', retained.runningTasks === 0],
  [
    'no search index or remembered tenant is held after idle',
    retained.indexes === 0 && retained.searchTenants === 0,
  ],
  ['no kept result is held after its expiry', retained.keptResults === 0],
  ['file descriptors come back to their number before the load', retained.fds <= before.fds],
  ['MCP server processes never outnumber the tenants with a server', report.childrenTrackTenants],
  ['the load ran without an error', load.errors === 0],
  ['the server exits cleanly on SIGTERM', report.cleanExit === true],
];
let passed = 0;
for (const [name, ok] of checks) {
  console.log(`${ok ? '✓' : '✗'} ${name}`);
  if (ok) passed += 1;
}
if (load.errors > 0) console.log(`  first errors: ${JSON.stringify(load.firstErrors)}`);
console.log(
  `  ${load.sessions} sessions (${load.abandoned} abandoned), ${load.calls} calls, ${load.runCode} run_code, ${load.tasks} tasks, servers added ${load.added.api}+${load.added.cli} (API+CLI), removed ${load.removed.api}+${load.removed.cli}; retained ${JSON.stringify(retained)}`,
);
console.log(`soak: ${passed} passed, ${checks.length - passed} failed`);
process.exit(passed === checks.length ? 0 : 1);
