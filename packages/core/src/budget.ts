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

const positive = z.number().int().positive();
const budgetSchema = z.strictObject({
  maxSteps: positive.optional(),
  maxToolCalls: positive.optional(),
  maxInputTokens: positive.optional(),
  maxOutputTokens: positive.optional(),
  maxWallTimeMs: positive.optional(),
});

/** Fills a partial budget with {@link DEFAULT_BUDGET}; throws `ConfigError` on bad limits. */
export function resolveBudget(partial: unknown = {}): Budget {
  const parsed = budgetSchema.safeParse(partial ?? {});
  if (!parsed.success) {
    const issues = describeIssues(parsed.error.issues);
    throw new ConfigError(
      `Invalid budget: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}. Each limit is a positive whole number.`,
      { details: { issues } },
    );
  }
  const given = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined));
  return Object.freeze({ ...DEFAULT_BUDGET, ...given });
}
