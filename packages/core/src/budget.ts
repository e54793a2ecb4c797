import { z } from 'zod';
import { ConfigError } from './errors.js';
import { describeIssues } from './config/issues.js';

/** The hard limits of one task; reaching any of them ends it with `budget_exceeded`. */
export interface Budget {
  readonly maxSteps: number;
  readonly maxToolCalls: number;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
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
  readonly limit: keyof Budget;
  readonly requested: number;
  readonly applied: number;
}

/** The budget a task runs under, and which of its limits the ceilings lowered. */
export interface ClampedBudget {
  readonly limits: Budget;
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

/** Fills a partial budget with `DEFAULT_BUDGET`; throws `ConfigError` on bad limits. */
export function resolveBudget(partial: unknown = {}): Budget {
  return fill('budget', partial, DEFAULT_BUDGET);
}

/**
 * Fills partial ceilings with {@link DEFAULT_BUDGET_CEILINGS}; throws `ConfigError` on bad
 * limits, so a deployment with a mistyped ceiling fails at start, not on the first task.
 */
export function resolveBudgetCeilings(partial: unknown = {}): Budget {
  return fill('budget ceilings', partial, DEFAULT_BUDGET_CEILINGS);
}

/** Lowers each limit of `budget` to its ceiling, and lists the limits that were lowered. */
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
