import { describe, expect, it } from 'vitest';
import {
  clampBudget,
  DEFAULT_BUDGET,
  DEFAULT_BUDGET_CEILINGS,
  resolveBudget,
  resolveBudgetCeilings,
} from './budget.js';
import { ConfigError } from './errors.js';

describe('resolveBudget', () => {
  it('fills defaults and keeps given limits', () => {
    expect(resolveBudget()).toEqual(DEFAULT_BUDGET);
    expect(resolveBudget({ maxSteps: 3 })).toEqual({ ...DEFAULT_BUDGET, maxSteps: 3 });
  });

  it('rejects non-positive, fractional and unknown limits, naming each', () => {
    try {
      resolveBudget({ maxSteps: 0, maxToolCalls: 1.5, maxTokens: 5 });
      expect.unreachable();
    } catch (error) {
      expect(ConfigError.isInstance(error)).toBe(true);
      const { message } = error as Error;
      expect(message).toMatch(/maxSteps/);
      expect(message).toMatch(/maxToolCalls/);
      expect(message).toMatch(/maxTokens/);
    }
  });
});

describe('budget ceilings', () => {
  it('resolveBudgetCeilings fills the documented defaults and names a bad ceiling', () => {
    expect(resolveBudgetCeilings()).toEqual(DEFAULT_BUDGET_CEILINGS);
    expect(resolveBudgetCeilings({ maxSteps: 5 })).toEqual({
      ...DEFAULT_BUDGET_CEILINGS,
      maxSteps: 5,
    });
    expect(() => resolveBudgetCeilings({ maxWallTimeMs: -1 })).toThrow(
      /Invalid budget ceilings: maxWallTimeMs/,
    );
  });

  it('the default budget fits under the default ceilings', () => {
    expect(clampBudget(DEFAULT_BUDGET, DEFAULT_BUDGET_CEILINGS)).toEqual({
      limits: DEFAULT_BUDGET,
      clamped: [],
    });
  });

  it('clampBudget lowers every limit past its ceiling and lists each one', () => {
    const asked = resolveBudget({
      maxSteps: 1_000_000,
      maxToolCalls: 1_000_000,
      maxWallTimeMs: 86_400_000,
      maxInputTokens: 1e12,
      maxOutputTokens: 100,
    });
    const { limits, clamped } = clampBudget(asked, DEFAULT_BUDGET_CEILINGS);
    expect(limits).toEqual({ ...DEFAULT_BUDGET_CEILINGS, maxOutputTokens: 100 });
    expect(clamped).toEqual([
      { limit: 'maxSteps', requested: 1_000_000, applied: DEFAULT_BUDGET_CEILINGS.maxSteps },
      {
        limit: 'maxToolCalls',
        requested: 1_000_000,
        applied: DEFAULT_BUDGET_CEILINGS.maxToolCalls,
      },
      { limit: 'maxInputTokens', requested: 1e12, applied: DEFAULT_BUDGET_CEILINGS.maxInputTokens },
      {
        limit: 'maxWallTimeMs',
        requested: 86_400_000,
        applied: DEFAULT_BUDGET_CEILINGS.maxWallTimeMs,
      },
    ]);
  });
});
