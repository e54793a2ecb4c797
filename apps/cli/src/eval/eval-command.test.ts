import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliHome } from '../cli-test-helpers.js';

const NO_MODEL = {
  MCP_AGENT_MODEL: '',
  ANTHROPIC_API_KEY: '',
  OPENAI_API_KEY: '',
  OPENAI_BASE_URL: '',
};
const { home, run } = cliHome('mcp-agent-eval-cli-', NO_MODEL);

afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('mcp-agent eval', () => {
  it('names a wrong --model, --mode or --task, and a missing model, before starting anything', () => {
    const model = run(['eval', '--model', 'gpt']);
    expect(model.code).toBe(2);
    expect(model.stderr).toMatch(/--model is oracle, idle or env .*not "gpt"/);
    const mode = run(['eval', '--mode', 'fast']);
    expect(mode.code).toBe(2);
    expect(mode.stderr).toMatch(/--mode is one of discovery, all-tools, code-first or all/);
    const task = run(['eval', '--task', 'no-such-task']);
    expect(task.code).toBe(2);
    expect(task.stderr).toMatch(/no task matches --task no-such-task/);
    const none = run(['eval']);
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/No model endpoint is configured/);
  });

  it('runs chosen tasks in a chosen mode and writes the report, the chart and the JSON totals', () => {
    const out = join(home, 'report');
    const result = run([
      'eval',
      '--model',
      'oracle',
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
    expect(readFileSync(join(out, 'chart.svg'), 'utf8')).toMatch(
      /^<svg[^]*all-tools \(2\/2\)[^]*<\/svg>\n$/,
    );
    expect(existsSync(join(out, 'report.md'))).toBe(true);
  });
});
