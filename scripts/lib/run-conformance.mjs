// Shared by the conformance runners: runs one scenario of the official suite and reads its
// verdict from the output.
import { spawn } from 'node:child_process';

/** Runs `node <suite> <args…>` and resolves {scenario, passed, checks, output}. */
export function runScenario(suite, args, scenario) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [suite, ...args, '--scenario', scenario], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
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

/** Prints a line per scenario (and the failures' telling lines), then `<label>: N passed, N failed`. */
export function report(label, results) {
  for (const result of results) {
    console.log(
      `${result.passed ? 'pass' : 'FAIL'}  ${result.scenario.padEnd(36)} checks ${result.checks}`,
    );
    if (!result.passed) {
      console.log(
        result.output
          .split('\n')
          .filter((line) => /FAIL|ERROR|Error|failed/.test(line))
          .slice(0, 8)
          .join('\n'),
      );
    }
  }
  const passed = results.filter((r) => r.passed).length;
  console.log(`${label}: ${passed} passed, ${results.length - passed} failed`);
  return passed === results.length;
}
