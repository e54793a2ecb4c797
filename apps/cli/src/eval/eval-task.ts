// What one task of the suite is: a request in a user's words, the servers it needs, its
// reference plan (what a careful model would do, mode-neutral), and a checker of its outcome.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { answerFailure, refuses, REFUSAL, type ExpectedAnswer } from './answer-line.js';
import { git, type EvalWorld } from './eval-world.js';
import { describeChange, type WorldChange } from './world-snapshot.js';

/** The suite's servers, by the id each is added under. */
export type EvalServerId = 'memory' | 'files' | 'sqlite' | 'git' | 'pdf' | 'time' | 'everything';

/** What a task exercises. */
export type TaskKind = 'action' | 'question' | 'multi-server' | 'large-result' | 'unsolvable';

/** One tool call of a reference plan. */
export interface PlanStep {
  /** `<server>.<tool>`. */
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** The reference plan: what to search for, the calls in order, and the final answer. */
export interface ReferencePlan {
  /** Short searches, one per thing to do, as a model would write them. */
  readonly queries: readonly string[];
  /** Empty for a task no connected tool can do. */
  readonly steps: readonly PlanStep[];
  readonly answer: string;
  /**
   * Values the tools' results must show before the answer is given (what the answer rests
   * on): the oracle checks them, so a passing question task proves the tools gave the value.
   */
  readonly evidence?: readonly string[];
}

/** What the checker sees after the task ran. */
export interface Outcome {
  readonly world: EvalWorld;
  /** The model's final reply ('' when there was none). */
  readonly answer: string;
  /** Every part of the world that differs from the fresh state the task started from. */
  readonly changes: readonly WorldChange[];
  /** Tools called successfully in this run (from sandboxed code too). */
  readonly toolsUsed: readonly string[];
  /** Every text the model was shown back by its commands in this run, one text. */
  readonly observed: string;
}

/** A question's answer and where its data is. */
export interface QuestionCheck {
  /** The final `ANSWER:` line, compared after normalising (answer-line.ts). */
  readonly answer: ExpectedAnswer;
  /** Tools that hold the data (`<server>.<tool>`): one must have been called in this run. */
  readonly sources: readonly string[];
  /**
   * Values of which one must be in what the tools returned (the data itself, or a value
   * computed from it where a model may compute it in SQL or code): an answer the tools never
   * showed is a guess, whatever tool was called.
   */
  readonly seen: readonly string[];
}

export interface EvalTask {
  readonly id: string;
  /** The request, in a user's words (the runner adds answer-line.ts's `ANSWER_RULE` to each). */
  readonly prompt: string;
  readonly kind: TaskKind;
  /** The servers the reference plan uses. */
  readonly servers: readonly EvalServerId[];
  /** What the checker looks at, in words (the README's table). */
  readonly checks: string;
  /** State this task needs beyond the common one, made after the reset. */
  readonly setup?: (world: EvalWorld) => void;
  readonly plan: (world: EvalWorld) => ReferencePlan;
  /** A question's answer; every question and large-result task has one. */
  readonly question?: QuestionCheck;
  /**
   * The parts of the world the request asks to change: every other part must be as it was.
   * Absent: nothing may change.
   */
  readonly changes?: (change: WorldChange) => boolean;
  /** Why the requested change is wrong, or undefined when it is right. */
  readonly check?: (outcome: Outcome) => string | undefined;
  /**
   * The reference plan with one subtle mistake (the `wrong-args` model plays it): a step's
   * arguments changed so that the outcome is wrong in a way a lax checker would miss.
   */
  readonly wrongArgs?: (plan: ReferencePlan, world: EvalWorld) => ReferencePlan;
}

/**
 * The verdict on a whole outcome: nothing changed beyond what the request asked for, a task no
 * tool can do refused in the declared form, a question answered from a tool that holds its
 * data, then the task's own check of the change it asked for. Undefined when it passed.
 */
export function judge(task: EvalTask, outcome: Outcome): string | undefined {
  const allowed = task.changes ?? (() => false);
  const stray = outcome.changes.filter((change) => !allowed(change));
  if (stray.length > 0)
    return `changed what the request never asked for: ${stray
      .slice(0, 4)
      .map(describeChange)
      .join(', ')}${stray.length > 4 ? ` and ${stray.length - 4} more` : ''}`;
  if (task.kind === 'unsolvable')
    return refuses(outcome.answer) ? undefined : `the reply does not end with ANSWER: ${REFUSAL}`;
  if (refuses(outcome.answer)) return 'the reply says a task the tools can do is not possible';
  if (task.question !== undefined) {
    const { answer, sources, seen } = task.question;
    if (!sources.some((tool) => outcome.toolsUsed.includes(tool)))
      return `no tool holding the data was called (one of ${sources.join(', ')})`;
    if (!seen.some((value) => outcome.observed.includes(value)))
      return `no tool result showed the data (${seen.map((v) => JSON.stringify(v)).join(' or ')})`;
    const wrong = answerFailure(outcome.answer, answer, (text) =>
      text.split(`${outcome.world.files}/`).join('').split(`${outcome.world.repo}/`).join(''),
    );
    if (wrong !== undefined) return wrong;
  } else if (outcome.changes.length === 0) return 'nothing changed';
  return task.check?.(outcome);
}

/** A file of the user's documents, or undefined when it is absent. */
export function fileText(world: EvalWorld, path: string): string | undefined {
  const full = join(world.files, path);
  return existsSync(full) ? readFileSync(full, 'utf8') : undefined;
}

/** Rows of a query on the shop database. */
export function rows(world: EvalWorld, sql: string): Record<string, unknown>[] {
  const db = new DatabaseSync(world.database, { readOnly: true });
  try {
    return db.prepare(sql).all() as Record<string, unknown>[];
  } catch (error) {
    return [{ error: (error as Error).message }];
  } finally {
    db.close();
  }
}

/** The memory graph as the memory server stored it. */
export function graph(world: EvalWorld): {
  entities: { name: string; entityType: string; observations: string[] }[];
  relations: { from: string; to: string; relationType: string }[];
} {
  const lines = existsSync(world.memory)
    ? readFileSync(world.memory, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
    : [];
  const items = lines.map((line) => JSON.parse(line) as Record<string, unknown> & { type: string });
  return {
    entities: items.filter((i) => i.type === 'entity') as never,
    relations: items.filter((i) => i.type === 'relation') as never,
  };
}

/** The repository's commit subjects, newest first. */
export function commitSubjects(world: EvalWorld): string[] {
  return git(world, 'log', '--format=%s').trim().split('\n');
}

/** Git's answer to one command in the repository ('' on an error). */
export function gitOut(world: EvalWorld, ...args: string[]): string {
  try {
    return git(world, ...args);
  } catch {
    return '';
  }
}

/** A plan with step `index`'s arguments merged with `patch` (a `wrongArgs` mutation). */
export function withArgs(
  index: number,
  patch: (world: EvalWorld) => Readonly<Record<string, unknown>>,
): (plan: ReferencePlan, world: EvalWorld) => ReferencePlan {
  return (plan, world) => ({
    ...plan,
    steps: plan.steps.map((step, i) =>
      i === index ? { ...step, args: { ...step.args, ...patch(world) } } : step,
    ),
  });
}

/** A plan with step `index` replaced (a `wrongArgs` mutation calling another tool). */
export function withStep(
  index: number,
  step: (world: EvalWorld) => PlanStep,
): (plan: ReferencePlan, world: EvalWorld) => ReferencePlan {
  return (plan, world) => ({
    ...plan,
    steps: plan.steps.map((s, i) => (i === index ? step(world) : s)),
  });
}

/** A change predicate: the part is one of `keys` (exact, or a prefix ending in `*`). */
export function changeOf(...keys: readonly string[]): (change: WorldChange) => boolean {
  return (change) =>
    keys.some((key) =>
      key.endsWith('*') ? change.key.startsWith(key.slice(0, -1)) : change.key === key,
    );
}

/** The first failure of several checks. */
export function all(...checks: (string | undefined)[]): string | undefined {
  return checks.find((check) => check !== undefined);
}
