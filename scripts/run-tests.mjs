// The test command: every check in order, each runner's summary line printed, and a closing
// "tests: N passed, N failed" line that counts every test run. Exits non-zero if any step fails.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const report = 'node_modules/.cache/vitest-report.json';
const sdkReport = 'node_modules/.cache/vitest-sdk-report.json';
// Stages run in order; a stage's steps run at most `width` at a time (output kept per step). The
// checks and the scripted task runs wait mostly on one core or on child processes, so two or three
// at once shorten the run on a 2-core machine; vitest uses every core by itself.
const stages = [
  { width: 1, steps: [['typecheck', ['exec', 'tsc', '--build']]] },
  {
    width: 2,
    steps: [
      ['lint', ['exec', 'eslint', '--max-warnings=0', '.']],
      ['format', ['exec', 'prettier', '--check', '--log-level=warn', '.']],
      // The API reference's checks without writing it: an export, method or call signature without a
      // doc comment, or a broken {@link}, fails (typedoc.json; `pnpm run docs` writes docs/api).
      ['docs', ['exec', 'typedoc', '--emit', 'none']],
    ],
  },
  {
    width: 1,
    steps: [
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
    ],
  },
  {
    width: 2,
    steps: [
      // The gateway and the pool again on the SDK's own transports and protocol (MCP_AGENT_WIRE=sdk,
      // packages/wire/README.md): the sessions, tenancy and stdio tests and the pool's, with every
      // lane off. The default run above covers the lanes.
      [
        'vitest-sdk',
        [
          'exec',
          'vitest',
          'run',
          '--reporter=default',
          '--reporter=json',
          `--outputFile.json=${sdkReport}`,
          'apps/server/src/gateway/gateway.test.ts',
          'apps/server/src/gateway/gateway-tenants.test.ts',
          'apps/server/src/gateway/stdio-gateway.test.ts',
          'packages/registry/src/connections/pool/connection-pool.test.ts',
        ],
        { MCP_AGENT_WIRE: 'sdk' },
      ],
      // The official MCP conformance suite's client scenarios against our client entry point.
      ['conformance', ['exec', 'node', 'scripts/conformance-client.mjs']],
      // Its server scenarios against the gateway over streamable HTTP and stdio, each with the
      // lanes on and with MCP_AGENT_WIRE=sdk: four runs at once, a summary line each.
      ['conformance-server', ['exec', 'node', 'scripts/conformance-server.mjs']],
      // The packages as someone outside this repository gets them: packed, installed with npm, used.
      ['install-test', ['exec', 'node', 'scripts/install-test.mjs']],
    ],
  },
  {
    width: 3,
    steps: [
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
      [
        'tasks-idle',
        ['bench', 'tasks', '--model', 'idle', '--out', 'node_modules/.cache/tasks-idle'],
      ],
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
    ],
  },
  {
    width: 1,
    steps: [
      // A two-minute soak of the served stack: every count comes back once the load stops (LOAD-12).
      ['soak', ['exec', 'node', 'scripts/soak-check.mjs']],
    ],
  },
];

mkdirSync('node_modules/.cache', { recursive: true });
rmSync(report, { force: true });
rmSync(sdkReport, { force: true });

// Steps whose output is read for a summary line; the others print straight to the terminal.
const captured = (name) =>
  name.startsWith('conformance') ||
  name.startsWith('tasks') ||
  name === 'install-test' ||
  name === 'soak';

/** Runs one step; a step that runs beside others keeps its output until it ends, whole. */
function runStep([name, args, env], alone) {
  const started = performance.now();
  const header = `\n[test] ${name}: pnpm ${args.join(' ')}`;
  if (alone) console.log(header);
  const capture = captured(name);
  const child = spawn('pnpm', args, {
    env: { ...process.env, ...env },
    stdio: ['inherit', alone && !capture ? 'inherit' : 'pipe', alone ? 'inherit' : 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      if (!alone) console.log(header);
      process.stdout.write(stdout);
      process.stderr.write(stderr);
      const status = code ?? signal;
      const seconds = ((performance.now() - started) / 1000).toFixed(0);
      console.log(
        `[test] ${name}: ${status === 0 ? 'ok' : `failed (exit ${status})`} in ${seconds} s`,
      );
      resolve({ name, status, stdout: capture ? stdout : '' });
    });
  });
}

/** Runs a stage's steps at most `width` at a time, in order of start. */
async function runStage({ width, steps: stageSteps }) {
  const results = [];
  let next = 0;
  const lane = async () => {
    while (next < stageSteps.length) {
      const step = stageSteps[next++];
      results.push(await runStep(step, width === 1 || stageSteps.length === 1));
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, stageSteps.length) }, lane));
  return results;
}

// `node scripts/run-tests.mjs <step> …` runs only the named steps (e.g. `tasks-idle tasks-hedge`).
const only = new Set(process.argv.slice(2));
const chosen = stages
  .map(({ width, steps }) => ({
    width,
    steps: only.size === 0 ? steps : steps.filter(([name]) => only.has(name)),
  }))
  .filter(({ steps }) => steps.length > 0);
let failedSteps = 0;
let scripted = { passed: 0, failed: 0 };
for (const stage of chosen) {
  for (const { status, stdout } of await runStage(stage)) {
    // A step may print several summary lines (conformance-server: one per transport and wire).
    const summaries = stdout.matchAll(
      /(?:conformance(?:-server-[a-z]+-[a-z]+)?|install-test|soak|tasks): (\d+) (?:passed|failed as expected), (\d+) (?:failed|passed unexpectedly)/g,
    );
    for (const summary of summaries) {
      scripted = {
        passed: scripted.passed + Number(summary[1]),
        failed: scripted.failed + Number(summary[2]),
      };
    }
    if (status !== 0) failedSteps += 1;
  }
}

let passed = 0;
let failed = 0;
for (const [label, file] of [
  ['vitest', report],
  ['vitest-sdk', sdkReport],
]) {
  if (!existsSync(file)) continue;
  const result = JSON.parse(readFileSync(file, 'utf8'));
  passed += result.numPassedTests;
  failed += result.numFailedTests;
  const skipped = result.numPendingTests + result.numTodoTests;
  console.log(
    `${label}: ${result.numPassedTests} passed, ${result.numFailedTests} failed, ${skipped} skipped`,
  );
}
// A failed step that is not a test (typecheck, lint) still fails the closing line.
console.log(`tests: ${passed + scripted.passed} passed, ${failed + failedSteps} failed`);
// exitCode, not exit(): every step ran synchronously, and the summary must reach the pipe whole.
process.exitCode = failedSteps > 0 || failed > 0 ? 1 : 0;
