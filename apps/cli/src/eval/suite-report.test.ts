import { describe, expect, it } from 'vitest';
import type { TaskRun } from './run-suite.js';
import {
  discoveryRatios,
  markdownReport,
  meanInterval,
  summarise,
  svgChart,
  wilson,
} from './suite-report.js';
import { EVAL_TASKS } from './tasks.js';

const run = (
  mode: TaskRun['mode'],
  passed: boolean,
  tokens: number,
  size: TaskRun['size'] = 'small',
): TaskRun => ({
  task: `t-${tokens}`,
  kind: 'question',
  mode,
  size,
  passed,
  status: 'completed',
  steps: 2,
  inputTokens: tokens,
  outputTokens: 10,
  cachedTokens: 0,
  costUsd: null,
  wallMs: 5,
});

describe('the task suite report', () => {
  it('gives the Wilson interval of a success rate (known values) and a normal interval of a mean', () => {
    // 8 of 10: 0.8 (0.490–0.943), as published tables give it.
    expect(wilson(8, 10)).toEqual({ value: 0.8, low: 0.49, high: 0.943 });
    // All passed still leaves room below 1; none passed room above 0.
    expect(wilson(43, 43).low).toBeCloseTo(0.918, 3);
    expect(wilson(0, 43)).toMatchObject({ value: 0, low: 0, high: 0.082 });
    expect(wilson(0, 0)).toEqual({ value: 0, low: 0, high: 0 });
    expect(meanInterval([10, 20, 30])).toEqual({ value: 20, low: 8.684, high: 31.316 });
  });

  it('summarises per mode and writes Markdown and an SVG with one point per mode', () => {
    const runs = [
      run('discovery', true, 100),
      run('discovery', false, 300),
      run('all-tools', true, 1000),
    ];
    const summary = summarise(runs);
    expect(summary.map((s) => [s.mode, s.passed, s.tasks, s.contextTokens.value])).toEqual([
      ['discovery', 1, 2, 200],
      ['all-tools', 1, 1, 1000],
    ]);
    const svg = svgChart('a <model>', summary);
    expect(svg.match(/<circle /g)).toHaveLength(2);
    // The values are printed beside each point, not only in a hover title.
    expect(svg).toMatch(/<text [^>]*>1\/2 · 200 tokens<\/text>/);
    expect(svg).toMatch(/<text [^>]*>1\/1 · 1,000 tokens<\/text>/);
    expect(svg).toContain('a &#60;model&#62;');
    expect(markdownReport('m', runs)).toContain('| small | discovery | 1/2 |');
  });
});

describe('the task suite report at two sizes', () => {
  it('summarises per size and mode, with tokens per solved task, cap hits and the discovery ratio', () => {
    const capped: TaskRun = {
      ...run('all-tools', false, 5_000_000, 'scale'),
      status: 'budget_exceeded',
      stoppedBy: 'maxInputTokens',
    };
    const runs = [
      run('discovery', true, 100),
      run('all-tools', true, 1000),
      run('discovery', true, 300, 'scale'),
      run('discovery', false, 100, 'scale'),
      run('all-tools', true, 1_000_000, 'scale'),
      capped,
    ];
    const summary = summarise(runs);
    expect(
      summary.map((s) => [s.size, s.mode, s.passed, s.tasks, s.tokensPerSolved, s.capHits]),
    ).toEqual([
      ['small', 'discovery', 1, 1, 100, 0],
      ['small', 'all-tools', 1, 1, 1000, 0],
      ['scale', 'discovery', 1, 2, 400, 0],
      ['scale', 'all-tools', 1, 2, 6_000_000, 1],
    ]);
    expect(discoveryRatios(summary)).toEqual([
      { size: 'small', ratio: 0.1 },
      { size: 'scale', ratio: 0 },
    ]);
    const markdown = markdownReport('m', runs);
    expect(markdown).toContain('| scale | all-tools | 1/2 |');
    expect(markdown).toMatch(/\| 6000000 \| 1 \|/);
    expect(markdown).toContain('Discovery-first per solved task, small: 0.100× the tokens');
    const svg = svgChart('m', summary);
    // Four points, the scale ones hollow; tokens from 100 to millions on a log axis.
    expect(svg.match(/<circle /g)).toHaveLength(4);
    expect(svg.match(/<circle [^>]*fill="#fff"/g)).toHaveLength(2);
    expect(svg).toContain('log scale');
    expect(svg).toContain('all-tools, scale (1/2)');
  });
});

describe('the task suite', () => {
  it('has at least 40 tasks with unique ids, over every server, several of each kind', () => {
    expect(EVAL_TASKS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(EVAL_TASKS.map((t) => t.id)).size).toBe(EVAL_TASKS.length);
    const servers = new Set(EVAL_TASKS.flatMap((t) => t.servers));
    expect([...servers].sort()).toEqual(
      ['everything', 'files', 'git', 'memory', 'pdf', 'sqlite', 'time'].sort(),
    );
    for (const kind of ['action', 'question', 'multi-server', 'large-result', 'unsolvable'])
      expect(EVAL_TASKS.filter((t) => t.kind === kind).length).toBeGreaterThanOrEqual(3);
  });

  it('keeps each reference plan to 1–5 calls on the servers the task names (none for unsolvable ones)', () => {
    const world = {
      root: '/w',
      files: '/w/files',
      repo: '/w/repo',
      database: '/w/db',
      memory: '/w/m',
    };
    for (const task of EVAL_TASKS) {
      const plan = task.plan(world);
      const used = new Set(plan.steps.map((s) => s.tool.slice(0, s.tool.indexOf('.'))));
      if (task.kind === 'unsolvable') expect(plan.steps, task.id).toEqual([]);
      else expect(plan.steps.length, task.id).toBeGreaterThanOrEqual(1);
      expect(plan.steps.length, task.id).toBeLessThanOrEqual(5);
      expect([...used].sort(), task.id).toEqual([...task.servers].sort());
    }
  });
});
