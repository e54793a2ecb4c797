import { z } from 'zod';
import { ConfigError } from './errors.js';
import { describeIssues } from './config/issues.js';

/** The hard limits of one task; reaching any of them ends it with `budget_exceeded`. */
export interface Budget {
  /** Model requests the task may make; each step is one request and what it asked for. */
  readonly maxSteps: number;
  /** Tool calls over the whole task, counting each call made from sandboxed code. */
  readonly maxToolCalls: number;
  /** Input tokens summed over every request, cache reads and writes included. */
  readonly maxInputTokens: number;
  /**
   * Output tokens summed over every request; the next request's `max_tokens` is capped by what
   * is left.
   */
  readonly maxOutputTokens: number;
  /** Milliseconds from the task's start, checked at each step and after each model response. */
  readonly maxWallTimeMs: number;
}

/** Defaults sized for an interactive request: a few searches, a few calls, two minutes. */
export const DEFAULT_BUDGET: Budget = Object.freeze({
  maxSteps: 20,
  maxToolCalls: 20,
  maxInputTokens: 200_000,
  maxOutputTokens: 16_000,
  maxWallTimeMs: 120_000,
});

/**
 * The operator's default ceilings: whatever budget a caller asks for, no task goes past these
 * (a tenant cannot buy a million steps or a day of wall time on the operator's model key).
 * Each is a few times `DEFAULT_BUDGET`.
 */
export const DEFAULT_BUDGET_CEILINGS: Budget = Object.freeze({
  maxSteps: 50,
  maxToolCalls: 100,
  maxInputTokens: 1_000_000,
  maxOutputTokens: 64_000,
  maxWallTimeMs: 600_000,
});

/** A limit asked for above the operator's ceiling, and the ceiling applied instead. */
export interface BudgetClamp {
  /** The limit that was lowered. */
  readonly limit: keyof Budget;
  /** What the caller asked for. */
  readonly requested: number;
  /** The operator's ceiling, which the task runs under instead. */
  readonly applied: number;
}

/** The budget a task runs under, and which of its limits the ceilings lowered. */
export interface ClampedBudget {
  /** Every limit at or under its ceiling; frozen. */
  readonly limits: Budget;
  /** The limits that were lowered, to tell the caller; empty when none was. */
  readonly clamped: readonly BudgetClamp[];
}

const positive = z.number().int().positive();
const budgetSchema = z.strictObject({
  maxSteps: positive.optional(),
  maxToolCalls: positive.optional(),
  maxInputTokens: positive.optional(),
  maxOutputTokens: positive.optional(),
  maxWallTimeMs: positive.optional(),
});

/**
 * Fills a partial budget with `DEFAULT_BUDGET`. `undefined` and `null` mean "all defaults".
 *
 * @throws ConfigError (`CONFIG_INVALID`) when a limit is not a positive whole number or a key is
 *   not a limit; `details.issues` lists each bad path.
 * @example
 * ```ts
 * const budget = clampBudget(resolveBudget({ maxSteps: 8 }), ceilings).limits;
 * ```
 */
export function resolveBudget(partial: unknown = {}): Budget {
  return fill('budget', partial, DEFAULT_BUDGET);
}

/**
 * Fills partial ceilings with {@link DEFAULT_BUDGET_CEILINGS}, so that a deployment with a
 * mistyped ceiling fails at start, not on the first task.
 *
 * @throws ConfigError (`CONFIG_INVALID`) when a ceiling is not a positive whole number or a key
 *   is not a limit; `details.issues` lists each bad path.
 */
export function resolveBudgetCeilings(partial: unknown = {}): Budget {
  return fill('budget ceilings', partial, DEFAULT_BUDGET_CEILINGS);
}

/**
 * Lowers each limit of `budget` to its ceiling, and lists the limits that were lowered (a clamp
 * is not an error: the task runs, and the caller is told what it runs under).
 *
 * @example
 * ```ts
 * const { limits, clamped } = clampBudget(resolveBudget({ maxSteps: 500 }), ceilings);
 * // with the default ceilings: limits.maxSteps === 50, and
 * // clamped[0] is { limit: 'maxSteps', requested: 500, applied: 50 }
 * ```
 */
export function clampBudget(budget: Budget, ceilings: Budget): ClampedBudget {
  const clamped: BudgetClamp[] = [];
  const limits = { ...budget };
  for (const limit of Object.keys(DEFAULT_BUDGET) as (keyof Budget)[]) {
    if (budget[limit] <= ceilings[limit]) continue;
    clamped.push({ limit, requested: budget[limit], applied: ceilings[limit] });
    limits[limit] = ceilings[limit];
  }
  return { limits: Object.freeze(limits), clamped };
}

function fill(what: string, partial: unknown, defaults: Budget): Budget {
  const parsed = budgetSchema.safeParse(partial ?? {});
  if (!parsed.success) {
    const issues = describeIssues(parsed.error.issues);
    throw new ConfigError(
      `Invalid ${what}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}. Each limit is a positive whole number.`,
      { details: { issues } },
    );
  }
  const given = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined));
  return Object.freeze({ ...defaults, ...given });
}
