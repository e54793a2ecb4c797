// What each scripted model says, task by task: the oracle plays the reference plan; the idle
// model and the adversaries each do one kind of wrong thing a checker must catch. Every
// adversary must fail every task it is run on (`appliesTo`): one that passes is a checker that
// can be fooled, and fails the test command.
import type { ToolMode } from '@mcp-agent/agent';
import type { ScriptedMessage } from '@mcp-agent/agent/testing';
import { REFUSAL } from './answer-line.js';
import type { EvalTask, PlanStep, ReferencePlan } from './eval-task.js';
import type { WorldChange } from './world-snapshot.js';
import type { EvalWorld } from './eval-world.js';

/** The adversaries: each passes no task a checker reads whole. */
export const ADVERSARIES = [
  'answer-only',
  'wrong-args',
  'extra-destroy',
  'hedge',
  'false-decline',
  'false-done',
] as const;

/** An adversary's name. */
export type AdversaryName = (typeof ADVERSARIES)[number];

/** The scripted models. */
export type ScriptedModelName = 'oracle' | 'idle' | AdversaryName;

/** Every scripted model's name, for the command line. */
export const SCRIPTED_MODELS: readonly ScriptedModelName[] = ['oracle', 'idle', ...ADVERSARIES];

/** One model response. */
export type Block = ScriptedMessage['content'][number];

/**
 * Whether a model's play is wrong for this task, so that the task is run with it. Answering
 * without a tool, or declining, is right for a task no tool can do; a hedge needs an answer to
 * hedge; a mutation needs a plan.
 */
export function appliesTo(name: ScriptedModelName, task: EvalTask): boolean {
  switch (name) {
    case 'answer-only':
    case 'false-decline':
      return task.kind !== 'unsolvable';
    case 'wrong-args':
      return task.wrongArgs !== undefined;
    case 'hedge':
      return task.question !== undefined || task.kind === 'unsolvable';
    default:
      return true;
  }
}

/** The answer value the oracle gives: a question's first accepted form, or the refusal. */
export function expectedAnswer(task: EvalTask): string | undefined {
  if (task.kind === 'unsolvable') return REFUSAL;
  const answer = task.question?.answer;
  if (answer === undefined) return undefined;
  return 'oneOf' in answer
    ? answer.oneOf[0]
    : answer.items.map((forms) => forms[0] ?? '').join(', ');
}

/** The oracle's final reply: the plan's words, and the `ANSWER:` line when one is asked for. */
export function finalReply(task: EvalTask, plan: ReferencePlan): string {
  const value = expectedAnswer(task);
  return value === undefined ? plan.answer : `${plan.answer}\nANSWER: ${value}`;
}

/** The turns of `plan` in one mode, each a model response, ending with `final`. */
export function planTurns(
  plan: ReferencePlan,
  mode: ToolMode,
  final: string,
  searches: readonly (readonly string[])[] = [plan.queries],
): Block[][] {
  const use = (name: string, input: unknown): Block => ({ type: 'tool_use', name, input });
  const answer: Block[] = [{ type: 'text', text: final }];
  const search = searches.map((queries) => use('search_tools', { queries }));
  if (plan.steps.length === 0) return mode === 'discovery' ? [search, answer] : [answer];
  if (mode === 'all-tools')
    return [...plan.steps.map((s) => [use(directName(s.tool), s.args)]), answer];
  if (mode === 'code-first') {
    const calls = plan.steps.map((s) => {
      const [server, tool] = split(s.tool);
      return `results.push(await tools[${JSON.stringify(server)}][${JSON.stringify(tool)}](${JSON.stringify(s.args)}));`;
    });
    return [
      [use('run_code', { code: ['const results = [];', ...calls, 'return results;'].join('\n') })],
      answer,
    ];
  }
  return [
    search,
    [use('describe_tools', { tool_ids: [...new Set(plan.steps.map((s) => s.tool))] })],
    ...plan.steps.map((s) => [use('call_tool', { tool_id: s.tool, arguments: s.args })]),
    answer,
  ];
}

/** An adversary's turns for one task in one mode. */
export function adversaryTurns(
  name: AdversaryName,
  task: EvalTask,
  world: EvalWorld,
  mode: ToolMode,
  index: number,
): Block[][] {
  const plan = task.plan(world);
  const text = (reply: string): Block[][] => [[{ type: 'text', text: reply }]];
  const value = expectedAnswer(task);
  switch (name) {
    // The answer a checker expects, no tool called.
    case 'answer-only':
      return text(finalReply(task, plan));
    // The plan with one subtle mistake, reported as done right.
    case 'wrong-args': {
      const wrong = task.wrongArgs?.(plan, world) ?? plan;
      return planTurns(wrong, mode, finalReply(task, plan));
    }
    // The plan, and one destructive call on state the request never mentioned.
    case 'extra-destroy': {
      const step = destructiveStep(task, world, index);
      return planTurns({ ...plan, steps: [...plan.steps, step] }, mode, finalReply(task, plan));
    }
    // The plan, then a wrong answer that contains the right value.
    case 'hedge':
      return planTurns(plan, mode, `${plan.answer}\nANSWER: ${hedge(value ?? '', index)}`);
    // A task the tools can do, declined after the plan's searches.
    case 'false-decline':
      return planTurns(
        { ...plan, steps: [] },
        mode,
        `None of the connected tools can do this.\nANSWER: ${REFUSAL}`,
      );
    // Claims the work was done, with nothing done.
    case 'false-done':
      return text('Done: I took care of it.\nANSWER: done');
  }
}

// Wrong, and each holding the right value: the forms a lax matcher accepts.
function hedge(value: string, index: number): string {
  const forms = [
    `${value}, or possibly not`,
    `probably ${value}`,
    `not ${value}`,
    `${value} (unless I misread it)`,
  ];
  return forms[index % forms.length] ?? value;
}

// Calls that destroy a part of the world no task's request mentions together with the others:
// the first (from a rotating start, so all are used) whose change the task does not allow.
function destructiveStep(task: EvalTask, world: EvalWorld, index: number): PlanStep {
  const candidates: { step: PlanStep; hits: WorldChange }[] = [
    {
      step: { tool: 'files.write_file', args: { path: `${world.files}/todo.md`, content: '' } },
      hits: { key: 'file:todo.md', before: '# To do', after: '' },
    },
    {
      step: { tool: 'sqlite.execute_sql', args: { sql: 'DELETE FROM orders WHERE id <= 10' } },
      hits: { key: 'row:orders:2', before: '{"status":"paid"}' },
    },
    {
      step: { tool: 'memory.delete_entities', args: { entityNames: ['Ada'] } },
      hits: { key: 'entity:Ada', before: '{}' },
    },
    {
      step: {
        tool: 'git.git_reset',
        args: { path: world.repo, mode: 'hard', target: 'HEAD~1', confirmed: true },
      },
      hits: { key: 'git:ref:refs/heads/main', before: 'a', after: 'b' },
    },
  ];
  const allowed = task.changes ?? (() => false);
  for (let i = 0; i < candidates.length; i += 1) {
    const candidate = candidates[(index + i) % candidates.length]!;
    if (!allowed(candidate.hits)) return candidate.step;
  }
  throw new Error(`task ${task.id} allows every destructive change the suite knows`);
}

// `<server>.<tool>` as the all-tools mode names it (the names here never clash).
function directName(toolId: string): string {
  const [server, tool] = split(toolId);
  return `${server}__${tool}`.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 60);
}

function split(toolId: string): [string, string] {
  const dot = toolId.indexOf('.');
  return [toolId.slice(0, dot), toolId.slice(dot + 1)];
}
