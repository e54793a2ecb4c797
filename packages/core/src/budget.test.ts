import { describe, expect, it } from 'vitest';
import { DEFAULT_BUDGET, resolveBudget } from './budget.js';
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
