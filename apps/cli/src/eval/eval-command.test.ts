import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliHome, cliPath } from '../cli-test-helpers.js';

const NO_MODEL = {
  MCP_AGENT_MODEL: '',
  ANTHROPIC_API_KEY: '',
  OPENAI_API_KEY: '',
  OPENAI_BASE_URL: '',
};
const { home, run } = cliHome('mcp-agent-eval-cli-', NO_MODEL);

afterAll(() => rmSync(home, { recursive: true, force: true }));

// Each test spawns the command (and the suite's servers) several times: minutes on a loaded
// 2-core machine, not the default 20 s.
describe('mcp-agent eval', () => {
  it('names a wrong --model, --mode or --task, and a missing model, before starting anything', () => {
    const model = run(['eval', '--model', 'gpt']);
    expect(model.code).toBe(2);
    expect(model.stderr).toMatch(
      /--model is oracle, idle, answer-only, wrong-args, extra-destroy, hedge, false-decline, false-done or env .*not "gpt"/,
    );
    const timeout = run(['eval', '--model', 'oracle', '--timeout', 'soon']);
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toMatch(/--timeout is a positive number, not "soon"/);
    const queries = run(['eval', '--model', 'oracle', '--queries', 'mine']);
    expect(queries.stderr).toMatch(/--queries is one of blind, blind-sentence, tool-worded/);
    const mode = run(['eval', '--mode', 'fast']);
    expect(mode.code).toBe(2);
    expect(mode.stderr).toMatch(/--mode is one of discovery, all-tools, code-first or all/);
    const task = run(['eval', '--task', 'no-such-task']);
    expect(task.code).toBe(2);
    expect(task.stderr).toMatch(
      /no task matches --task no-such-task \(ids: memory-remember-person, /,
    );
    const none = run(['eval']);
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/No model endpoint is configured/);
  }, 90_000);

  it('names a wrong --size, and the benchmark data folder when the scale size cannot find it', () => {
    const size = run(['eval', '--size', 'huge']);
    expect(size.code).toBe(2);
    expect(size.stderr).toMatch(/--size is one of small, scale or all, not "huge"/);
    const missing = join(home, 'no-bench');
    const result = run(['eval', '--model', 'oracle', '--size', 'scale', '--task', 'time-'], {
      env: { MCP_AGENT_BENCH_DIR: missing },
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(join(missing, 'catalogs', 'real-mcp-tools', 'corpus.jsonl'));
    expect(result.stderr).toMatch(/MCP_AGENT_BENCH_DIR/);
    // Two CLI starts: room for a loaded machine.
  }, 60_000);

  it('runs chosen tasks (--tasks a,b) in chosen modes (--modes) and writes the report, the chart, the JSON totals and a transcript per run', () => {
    const out = join(home, 'report');
    const result = run([
      'eval',
      '--model',
      'oracle',
      '--modes',
      'all-tools',
      '--tasks',
      'everything-sum,none-weather',
      '--timeout',
      '60',
      '--max-input-tokens',
      '100000',
      '--out',
      out,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toContain('tasks: 2 passed, 0 failed');
    const totals = JSON.parse(lines.at(-1) ?? '') as { modes: { mode: string; passed: number }[] };
    expect(totals.modes).toMatchObject([{ mode: 'all-tools', passed: 2, tasks: 2 }]);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
      runs: { task: string; passed: boolean; inputTokens: number; steps: number }[];
    };
    expect(report.runs.map((r) => [r.task, r.passed, r.steps])).toEqual([
      ['everything-sum', true, 1],
      ['none-weather', true, 0],
    ]);
    expect(report.runs.every((r) => r.inputTokens > 0)).toBe(true);
    const chart = readFileSync(join(out, 'chart.svg'), 'utf8');
    expect(chart).toMatch(/^<svg[^]*all-tools, small \(2\/2\)[^]*<\/svg>\n$/);
    expect(existsSync(join(out, 'report.md'))).toBe(true);
    // Each run's transcript: the request with its answer rule, the call and its result, the reply.
    const sum = readFileSync(join(out, 'transcripts', 'all-tools', 'everything-sum.md'), 'utf8');
    expect(sum).toMatch(/^# everything-sum \(all-tools\): passed/);
    expect(sum).toContain('Use the test server to add 1234 and 5678.');
    expect(sum).toMatch(/## 1\. everything__get-sum[^]*"a": 1234[^]*6912[^]*ANSWER: 6912/);
    expect(readdirSync(join(out, 'transcripts', 'all-tools')).sort()).toEqual([
      'everything-sum.md',
      'none-weather.md',
    ]);
  }, 90_000);

  it('reports an adversary that fails every task as failed as expected, and runs it only where its play is wrong', () => {
    const out = join(home, 'adversary');
    const result = run([
      'eval',
      '--model',
      'false-decline',
      '--mode',
      'all-tools',
      '--task',
      'everything-sum',
      '--task',
      'none-weather',
      '--out',
      out,
    ]);
    expect(result.code, result.stderr).toBe(0);
    // Declining is right for none-weather: only everything-sum runs.
    expect(result.stdout).toContain('tasks: 1 failed as expected, 0 passed unexpectedly');
    expect(result.stdout).not.toMatch(/\d+ passed,/);
  }, 90_000);

  it('removes its temporary folders, secret.key and all, when interrupted (Ctrl-C)', async () => {
    const temporary = mkdtempSync(join(tmpdir(), 'mcp-agent-eval-interrupt-'));
    try {
      const child = spawn(
        process.execPath,
        [
          cliPath,
          '--home',
          home,
          'eval',
          '--model',
          'oracle',
          '--mode',
          'all-tools',
          '--out',
          join(home, 'interrupted'),
        ],
        {
          env: { ...process.env, ...NO_MODEL, TMPDIR: temporary },
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
      // Interrupted mid-run: once its state and the agent's home (with its secret.key) exist.
      const deadline = Date.now() + 60_000;
      const made = () =>
        readdirSync(temporary).filter((name) => name.startsWith('mcp-agent-eval-home-'));
      while (
        !made().some((name) => existsSync(join(temporary, name, 'secret.key'))) &&
        Date.now() < deadline
      )
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(made().length, stderr).toBe(1);
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(stderr).toContain('its temporary folders are removed');
      expect(readdirSync(temporary).filter((name) => name.startsWith('mcp-agent-eval'))).toEqual(
        [],
      );
    } finally {
      rmSync(temporary, { recursive: true, force: true });
    }
  }, 90_000);
});
