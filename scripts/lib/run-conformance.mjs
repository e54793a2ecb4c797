// Shared by the conformance runners: runs the official suite (one scenario, or every server
// scenario against one URL) and reads its verdicts.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const compileCache = fileURLToPath(
  new URL('../../node_modules/.cache/conformance-compile', import.meta.url),
);

// The compile cache takes about a third off the suite's start (0.7 s of CPU without it).
const suiteEnv = () => ({
  ...process.env,
  NO_COLOR: '1',
  FORCE_COLOR: '0',
  NODE_COMPILE_CACHE: compileCache,
});

/**
 * Runs every server scenario of the suite against `url` in one process (`--suite all`, its
 * results written under `outDir`), and resolves each scenario's checks by name: one start of the
 * suite for a run rather than one per scenario. A scenario missing from the map did not run.
 */
export function runServerSuite(suite, url, outDir) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [suite, 'server', '--url', url, '--suite', 'all', '--output-dir', outDir],
      { stdio: ['ignore', 'ignore', 'ignore'], env: suiteEnv() },
    );
    child.on('close', () => {
      const checks = new Map();
      for (const entry of readdirSync(outDir)) {
        // <outDir>/server-<scenario>-<ISO time with - for : and .>/checks.json
        const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry)?.[1];
        if (scenario === undefined) continue;
        checks.set(scenario, JSON.parse(readFileSync(join(outDir, entry, 'checks.json'), 'utf8')));
      }
      resolve(checks);
    });
  });
}

/**
 * A scenario's result from its checks, as the suite's baseline check counts it (a FAILURE or a
 * WARNING fails it): `pass` or `fail`, or with `expected` (it is in the run's expected-failures
 * file) `xfail` when it failed and `stale` when it passed.
 */
export function verdict(scenario, checks, { expected = false } = {}) {
  const ran = checks !== undefined;
  const bad = ran ? checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING') : [];
  const failed = !ran || bad.length > 0;
  const counted = ran ? checks.filter((c) => c.status === 'SUCCESS' || c.status === 'FAILURE') : [];
  return {
    scenario,
    outcome: expected ? (failed ? 'xfail' : 'stale') : failed ? 'fail' : 'pass',
    checks: `${counted.filter((c) => c.status === 'SUCCESS').length}/${counted.length}`,
    output: ran
      ? bad.map((c) => `    ${c.status} ${c.name}: ${c.errorMessage ?? c.description}`).join('\n')
      : '    FAILED: the scenario did not run (no results written)',
  };
}

/** Runs `node <suite> <args…>` and resolves {scenario, passed, checks, output}. */
export function runScenario(suite, args, scenario) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [suite, ...args, '--scenario', scenario], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: suiteEnv(),
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const checks = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(output);
      const passed =
        code === 0 && checks !== null && checks[3] === '0' && !/OVERALL: FAILED/.test(output);
      resolve({ scenario, passed, checks: checks ? `${checks[1]}/${checks[2]}` : '?', output });
    });
  });
}

/**
 * The scenarios of an expected-failures file (the suite's YAML: `server:` then `- <scenario>`
 * lines), each of which must give its reason in a comment on its line: an entry without one
 * throws, naming the file and the entry.
 */
export function readExpectedFailures(file) {
  const scenarios = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const entry = /^\s*-\s*([\w/-]+)\s*(#\s*(.*))?$/.exec(line);
    if (entry === null) continue;
    if (!entry[3]?.trim())
      throw new Error(`${file}: "${entry[1]}" has no reason; add one as "# why" on its line`);
    scenarios.push(entry[1]);
  }
  return scenarios;
}

/**
 * Prints a line per scenario (and the failures' telling lines), then `<label>: N passed, N
 * failed`, with the expected failures and what was left out after it when there were any.
 * Returns whether nothing failed (an expected failure that passed is a failure: its file is stale).
 */
export function report(label, results, { notApplicable = 0, log = console.log } = {}) {
  const mark = { pass: 'pass', fail: 'FAIL', xfail: 'xfail', stale: 'STALE' };
  for (const result of results) {
    const outcome = result.outcome ?? (result.passed ? 'pass' : 'fail');
    log(
      `${mark[outcome].padEnd(5)} ${result.scenario.padEnd(36)} checks ${result.checks}${outcome === 'stale' ? '  (passes: remove it from the expected failures)' : ''}`,
    );
    if (outcome === 'fail') {
      log(
        result.output
          .split('\n')
          .filter((line) => /FAIL|ERROR|Error|failed|WARNING/.test(line))
          .slice(0, 8)
          .join('\n'),
      );
    }
  }
  const count = (outcome) =>
    results.filter((r) => (r.outcome ?? (r.passed ? 'pass' : 'fail')) === outcome).length;
  const failed = count('fail') + count('stale');
  const extra = [
    ...(count('xfail') > 0 ? [`${count('xfail')} expected failures`] : []),
    ...(notApplicable > 0 ? [`${notApplicable} not applicable`] : []),
  ];
  log(
    `${label}: ${count('pass')} passed, ${failed} failed${extra.length > 0 ? ` (${extra.join(', ')})` : ''}`,
  );
  return failed === 0;
}
