// The test command: every check in order, each runner's summary line printed, and a closing
// "tests: N passed, N failed" line that counts every test run. Exits non-zero if any step fails.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const report = 'node_modules/.cache/vitest-report.json';
const steps = [
  ['typecheck', ['exec', 'tsc', '--build']],
  ['lint', ['exec', 'eslint', '--max-warnings=0', '.']],
  ['format', ['exec', 'prettier', '--check', '--log-level=warn', '.']],
  // The API reference's checks without writing it: an export, method or call signature without a
  // doc comment, or a broken {@link}, fails (typedoc.json; `pnpm run docs` writes docs/api).
  ['docs', ['exec', 'typedoc', '--emit', 'none']],
  [
    'vitest',
    [
      'exec',
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ],
  ],
  // The official MCP conformance suite's client scenarios against our client entry point.
  ['conformance', ['exec', 'node', 'scripts/conformance-client.mjs']],
  ['conformance-server', ['exec', 'node', 'scripts/conformance-server.mjs']],
  // The packages as someone outside this repository gets them: packed, installed with npm, used.
  ['install-test', ['exec', 'node', 'scripts/install-test.mjs']],
  // The task suite (apps/cli/src/eval) with its scripted models: the oracle passes every task in
  // each mode; the idle model and each adversary fail every task they run (each such run counts
  // as a passed test, "failed as expected"; one that passes is a checker fooled, and fails).
  // The adversaries run in one mode each, two per mode, to keep the steps short: 24–41 s each,
  // 170–200 s for the six, on a loaded 2-core machine (load 15), against 32–94 s each (430 s)
  // in all three modes; `pnpm bench tasks --model <name>` runs all three, and each passes none
  // there too.
  [
    'tasks-oracle',
    ['bench', 'tasks', '--model', 'oracle', '--out', 'node_modules/.cache/tasks-oracle'],
  ],
  ['tasks-idle', ['bench', 'tasks', '--model', 'idle', '--out', 'node_modules/.cache/tasks-idle']],
  ...[
    ['answer-only', 'discovery'],
    ['wrong-args', 'all-tools'],
    ['extra-destroy', 'code-first'],
    ['hedge', 'discovery'],
    ['false-decline', 'code-first'],
    ['false-done', 'all-tools'],
  ].map(([model, mode]) => [
    `tasks-${model}`,
    [
      'bench',
      'tasks',
      '--model',
      model,
      '--mode',
      mode,
      '--out',
      `node_modules/.cache/tasks-${model}`,
    ],
  ]),
  // The scale size (the recorded catalogs of ../shared/bench beside the suite's servers, 890
  // servers and 8,789 tools) in discovery-first, the mode whose claim holds only at scale: about
  // 40 s on a loaded 2-core machine (all tools up front took 2.5–4 min, most of it tokenising
  // 1.5M-token requests); `pnpm bench tasks --model oracle --size all` runs every mode at both
  // sizes (about ten minutes, most of it connecting the distractors once per mode).
  [
    'tasks-oracle-scale',
    [
      'bench',
      'tasks',
      '--model',
      'oracle',
      '--size',
      'scale',
      '--mode',
      'discovery',
      '--out',
      'node_modules/.cache/tasks-oracle-scale',
    ],
  ],
  // A two-minute soak of the served stack: every count comes back once the load stops (LOAD-12).
  ['soak', ['exec', 'node', 'scripts/soak-check.mjs']],
];

mkdirSync('node_modules/.cache', { recursive: true });
rmSync(report, { force: true });
let failedSteps = 0;
let scripted = { passed: 0, failed: 0 };
for (const [name, args] of steps) {
  console.log(`\n[test] ${name}: pnpm ${args.join(' ')}`);
  const capture =
    name.startsWith('conformance') ||
    name.startsWith('tasks') ||
    name === 'install-test' ||
    name === 'soak';
  const { status, stdout } = spawnSync('pnpm', args, {
    stdio: ['inherit', capture ? 'pipe' : 'inherit', 'inherit'],
    encoding: 'utf8',
  });
  if (capture) {
    process.stdout.write(stdout ?? '');
    const summary =
      /(?:conformance(?:-server)?|install-test|soak|tasks): (\d+) (?:passed|failed as expected), (\d+) (?:failed|passed unexpectedly)/.exec(
        stdout ?? '',
      );
    if (summary) {
      scripted = {
        passed: scripted.passed + Number(summary[1]),
        failed: scripted.failed + Number(summary[2]),
      };
    }
  }
  console.log(`[test] ${name}: ${status === 0 ? 'ok' : `failed (exit ${status})`}`);
  if (status !== 0) failedSteps += 1;
}

let passed = 0;
let failed = 0;
if (existsSync(report)) {
  const result = JSON.parse(readFileSync(report, 'utf8'));
  passed = result.numPassedTests;
  failed = result.numFailedTests;
  const skipped = result.numPendingTests + result.numTodoTests;
  console.log(`vitest: ${passed} passed, ${failed} failed, ${skipped} skipped`);
}
// A failed step that is not a test (typecheck, lint) still fails the closing line.
console.log(`tests: ${passed + scripted.passed} passed, ${failed + failedSteps} failed`);
// exitCode, not exit(): every step ran synchronously, and the summary must reach the pipe whole.
process.exitCode = failedSteps > 0 || failed > 0 ? 1 : 0;
