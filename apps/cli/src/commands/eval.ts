import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createModelClientFromEnv, TOOL_MODES, type ToolMode } from '@mcp-agent/agent';
import { ANSWER_RULE } from '../eval/answer-line.js';
import type { EvalTask } from '../eval/eval-task.js';
import { EVAL_TASKS } from '../eval/tasks.js';
import { runSuite, type TaskRun } from '../eval/run-suite.js';
import { QUERY_VARIANTS, type QueryVariant } from '../eval/scripted-models.js';
import { appliesTo, SCRIPTED_MODELS, type ScriptedModelName } from '../eval/scripted-plays.js';
import { discoveryRatios, markdownReport, summarise, svgChart } from '../eval/suite-report.js';
import { SUITE_SIZES, type SuiteSize } from '../eval/suite-size.js';
import { transcript } from '../eval/transcript.js';
import { usage, type Invocation } from '../invocation.js';

/**
 * eval: the task suite in each mode against the configured model (`--model oracle|idle|<an
 * adversary>` for the scripted ones). Writes report.json, report.md, chart.svg and one
 * transcript per run to `--out`, prints progress on stderr and the totals as JSON on the last
 * line of stdout. With a scripted model it exits 1 when the oracle fails a task, or the idle
 * model or an adversary passes one (each of those must fail every task it runs).
 */
export async function evalCommand(cli: Invocation): Promise<void> {
  const { values } = cli;
  const modelName = typeof values.model === 'string' ? values.model : 'env';
  const modes = parseModes([...list(values.mode), ...list(values.modes)]);
  const sizes = parseSizes(list(values.size));
  const scripted = (SCRIPTED_MODELS as readonly string[]).includes(modelName)
    ? (modelName as ScriptedModelName)
    : undefined;
  if (scripted === undefined && modelName !== 'env')
    usage(
      `--model is ${SCRIPTED_MODELS.join(', ')} or env (the model MCP_AGENT_MODEL names), not "${modelName}"`,
      'eval',
    );
  const tasks = chooseTasks([...list(values.task), ...list(values.tasks)], scripted);
  const queries = (typeof values.queries === 'string' ? values.queries : 'blind') as QueryVariant;
  if (!QUERY_VARIANTS.includes(queries))
    usage(`--queries is one of ${QUERY_VARIANTS.join(', ')}, not "${queries}"`, 'eval');
  const timeoutMs = positive(values.timeout, '--timeout', 1000);
  const maxInputTokens = positive(values['max-input-tokens'], '--max-input-tokens', 1);
  // No second request with a tool required: a right answer without a tool (a request no tool
  // can do) must cost what it costs, and pass on an endpoint that ignores tool_choice.
  const model =
    scripted ?? (await createModelClientFromEnv(process.env, { verifyToolSupport: false }));
  const out = resolve(typeof values.out === 'string' ? values.out : 'mcp-agent-eval');
  const transcripts = join(out, 'transcripts');
  rmSync(transcripts, { recursive: true, force: true });
  const expected = scripted === undefined ? undefined : scripted === 'oracle';
  const stopCleanly = removeOnInterrupt();
  let runs: TaskRun[];
  try {
    runs = await runSuite({
      model,
      modes,
      sizes,
      tasks,
      queries,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(maxInputTokens === undefined ? {} : { maxInputTokens }),
      onTemporary: stopCleanly.add,
      onResult: (run, task, result) => {
        const folder = join(transcripts, ...(run.size === 'small' ? [] : [run.size]), run.mode);
        mkdirSync(folder, { recursive: true });
        writeFileSync(
          join(folder, `${run.task}.md`),
          transcript(`${task.prompt}${ANSWER_RULE}`, run, result),
        );
      },
      // Every run on a terminal or for a real model; off a terminal, the scripted models' runs
      // that did not go as they must (the test command's log stays short).
      onRun: (run) =>
        (process.stderr.isTTY || expected === undefined || run.passed !== expected) &&
        process.stderr.write(
          `${run.passed ? 'pass' : 'FAIL'} ${run.size} ${run.mode} ${run.task}${run.reason === undefined ? '' : `: ${run.reason.slice(0, 200)}`}\n`,
        ),
    });
  } finally {
    stopCleanly.done();
  }
  const name = typeof model === 'string' ? model : model.modelId;
  mkdirSync(out, { recursive: true });
  const summary = summarise(runs);
  writeFileSync(
    join(out, 'report.json'),
    `${JSON.stringify({ model: name, queries, summary, runs }, null, 2)}\n`,
  );
  writeFileSync(join(out, 'report.md'), markdownReport(name, runs));
  writeFileSync(join(out, 'chart.svg'), svgChart(name, summary));
  if (expected !== undefined) {
    // The test command reads this line (scripts/run-tests.mjs): the oracle's runs pass; every
    // other scripted model's runs fail, and are counted as failed as expected.
    const met = runs.filter((r) => r.passed === expected).length;
    const unmet = runs.length - met;
    process.stdout.write(
      expected
        ? `tasks: ${met} passed, ${unmet} failed\n`
        : `tasks: ${met} failed as expected, ${unmet} passed unexpectedly\n`,
    );
    if (unmet > 0) process.exitCode = 1;
  }
  process.stdout.write(
    `${JSON.stringify({ benchmark: 'tasks', model: name, queries, tasks: tasks.length, report: out, modes: summary, discoveryRatio: discoveryRatios(summary) })}\n`,
  );
}

// A repeatable flag whose values may also be comma-separated lists.
function list(value: unknown): string[] {
  const given = Array.isArray(value)
    ? (value as string[])
    : typeof value === 'string'
      ? [value]
      : [];
  return given
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

// Tasks by id (or part of one); a scripted model's only where its play is wrong.
function chooseTasks(only: readonly string[], scripted: ScriptedModelName | undefined): EvalTask[] {
  for (const id of only)
    if (!EVAL_TASKS.some((t) => t.id.includes(id)))
      usage(
        `no task matches --task ${id} (ids: ${EVAL_TASKS.map((t) => t.id).join(', ')})`,
        'eval',
      );
  const tasks = EVAL_TASKS.filter(
    (t) =>
      (only.length === 0 || only.some((o) => t.id.includes(o))) &&
      (scripted === undefined || appliesTo(scripted, t)),
  );
  if (tasks.length === 0)
    usage(`no task of --task ${only.join(', ')} is one ${String(scripted)} runs`, 'eval');
  return tasks;
}

// A positive number of seconds (times `scale` for the unit wanted), or undefined when absent.
function positive(value: unknown, flag: string, scale: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0)
    usage(`${flag} is a positive number, not "${String(value).slice(0, 40)}"`, 'eval');
  return Math.round(number * scale);
}

function parseModes(given: readonly string[]): ToolMode[] {
  if (given.length === 0 || given.includes('all')) return [...TOOL_MODES];
  for (const mode of given)
    if (!(TOOL_MODES as readonly string[]).includes(mode))
      usage(`--mode is one of ${TOOL_MODES.join(', ')} or all, not "${mode}"`, 'eval');
  return [...new Set(given)] as ToolMode[];
}

function parseSizes(given: readonly string[]): SuiteSize[] {
  if (given.length === 0) return ['small'];
  if (given.includes('all')) return [...SUITE_SIZES];
  for (const size of given)
    if (!(SUITE_SIZES as readonly string[]).includes(size))
      usage(`--size is one of ${SUITE_SIZES.join(', ')} or all, not "${size}"`, 'eval');
  return given as SuiteSize[];
}

// Ctrl-C (or a kill) mid-run removes the suite's folders (its state, and the agent's home with
// its secret.key) before the process ends; the servers, its children, end with it.
function removeOnInterrupt(): { add: (folder: string) => void; done: () => void } {
  const folders = new Set<string>();
  const stop = (signal: NodeJS.Signals) => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    process.stderr.write(`eval: interrupted (${signal}); its temporary folders are removed\n`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    add: (folder) => folders.add(folder),
    done: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}
