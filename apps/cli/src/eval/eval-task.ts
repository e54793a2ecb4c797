// What one task of the suite is: a request in a user's words, the servers it needs, its
// reference plan (what a careful model would do, mode-neutral), and a checker of its outcome.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { git, type EvalWorld } from './eval-world.js';

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
  /** The model's final answer ('' when there was none). */
  readonly answer: string;
}

export interface EvalTask {
  readonly id: string;
  /** The request, in a user's words. */
  readonly prompt: string;
  readonly kind: TaskKind;
  /** The servers the reference plan uses. */
  readonly servers: readonly EvalServerId[];
  /** What the checker looks at, in words (the README's table). */
  readonly checks: string;
  /** State this task needs beyond the common one, made after the reset. */
  readonly setup?: (world: EvalWorld) => void;
  readonly plan: (world: EvalWorld) => ReferencePlan;
  /** Why the outcome is wrong, or undefined when it is right. */
  readonly check: (outcome: Outcome) => string | undefined;
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

/** A failure unless the answer contains every value (case-insensitive). */
export function answerHas(
  answer: string,
  ...values: readonly (string | number)[]
): string | undefined {
  const missing = values.filter((v) => !answer.toLowerCase().includes(String(v).toLowerCase()));
  return missing.length === 0
    ? undefined
    : `the answer does not say ${missing.map((v) => JSON.stringify(String(v))).join(', ')}`;
}

const DECLINE =
  /\b(can(?:no|')t|unable|not able|no (?:connected )?tool|not possible|don't have|do not have)\b/i;

/** A failure unless the answer says the task cannot be done. */
export function declines(answer: string): string | undefined {
  return DECLINE.test(answer) ? undefined : 'the answer does not say that no tool can do this';
}

/** The first failure of several checks. */
export function all(...checks: (string | undefined)[]): string | undefined {
  return checks.find((check) => check !== undefined);
}
