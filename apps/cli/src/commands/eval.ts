import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createModelClientFromEnv, TOOL_MODES, type ToolMode } from '@mcp-agent/agent';
import { EVAL_TASKS } from '../eval/tasks.js';
import { runSuite, type TaskRun } from '../eval/run-suite.js';
import { markdownReport, summarise, svgChart } from '../eval/suite-report.js';
import { usage, type Invocation } from '../invocation.js';

/**
 * eval: the task suite in each mode against the configured model (`--model oracle|idle` for
 * the scripted ones). Writes report.json, report.md and chart.svg to `--out`, prints progress
 * on stderr and the totals as JSON on the last line of stdout. With a scripted model it exits
 * 1 when the oracle fails a task or the idle model passes one.
 */
export async function evalCommand(cli: Invocation): Promise<void> {
  const { values } = cli;
  const modelName = typeof values.model === 'string' ? values.model : 'env';
  const modes = parseModes(values.mode);
  const only = (values.task as string[] | undefined) ?? [];
  const tasks = EVAL_TASKS.filter((t) => only.length === 0 || only.some((o) => t.id.includes(o)));
  if (tasks.length === 0) usage(`no task matches --task ${only.join(', ')}`, 'eval');
  const scripted = modelName === 'oracle' || modelName === 'idle' ? modelName : undefined;
  if (scripted === undefined && modelName !== 'env')
    usage(
      `--model is oracle, idle or env (the model MCP_AGENT_MODEL names), not "${modelName}"`,
      'eval',
    );
  const model = scripted ?? (await createModelClientFromEnv());
  const runs = await runSuite({
    model,
    modes,
    tasks,
    // Every run on a terminal or for a real model; off a terminal, the scripted models' runs
    // that did not go as they must (the test command's log stays short).
    onRun: (run) =>
      (process.stderr.isTTY || scripted === undefined || run.passed !== (scripted === 'oracle')) &&
      process.stderr.write(
        `${run.passed ? 'pass' : 'FAIL'} ${run.mode} ${run.task}${run.reason === undefined ? '' : `: ${run.reason.slice(0, 200)}`}\n`,
      ),
  });
  const name = typeof model === 'string' ? model : model.modelId;
  const out = resolve(typeof values.out === 'string' ? values.out : 'mcp-agent-eval');
  mkdirSync(out, { recursive: true });
  const summary = summarise(runs);
  writeFileSync(
    join(out, 'report.json'),
    `${JSON.stringify({ model: name, summary, runs }, null, 2)}\n`,
  );
  writeFileSync(join(out, 'report.md'), markdownReport(name, runs));
  writeFileSync(join(out, 'chart.svg'), svgChart(name, summary));
  const met = scripted === undefined ? undefined : expectationsMet(scripted, runs);
  if (met !== undefined) {
    // The test command reads this line (scripts/run-tests.mjs).
    process.stdout.write(`tasks: ${met.passed} passed, ${met.failed} failed\n`);
    if (met.failed > 0) process.exitCode = 1;
  }
  process.stdout.write(
    `${JSON.stringify({ benchmark: 'tasks', model: name, tasks: tasks.length, report: out, modes: summary })}\n`,
  );
}

// The oracle must pass every task and the idle model fail every one: each run meeting that
// counts as passed.
function expectationsMet(model: 'oracle' | 'idle', runs: readonly TaskRun[]) {
  const passed = runs.filter((r) => r.passed === (model === 'oracle')).length;
  return { passed, failed: runs.length - passed };
}

function parseModes(value: unknown): ToolMode[] {
  const given = (value as string[] | undefined) ?? [];
  if (given.length === 0 || given.includes('all')) return [...TOOL_MODES];
  for (const mode of given)
    if (!(TOOL_MODES as readonly string[]).includes(mode))
      usage(`--mode is one of ${TOOL_MODES.join(', ')} or all, not "${mode}"`, 'eval');
  return given as ToolMode[];
}
