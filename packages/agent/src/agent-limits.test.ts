import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_BUDGET_CEILINGS, RateLimitedError } from '@mcp-agent/core';
import {
  DEFAULT_MAX_RUNNING_TASKS_PER_USER,
  resolveAgentLimits,
  RunningTasks,
} from './agent-limits.js';

describe('the operator limits of the agent', () => {
  it('fill the documented defaults and refuse a bad limit by name', () => {
    expect(resolveAgentLimits()).toEqual({
      budgetCeilings: DEFAULT_BUDGET_CEILINGS,
      maxRunningTasksPerUser: DEFAULT_MAX_RUNNING_TASKS_PER_USER,
    });
    expect(() => resolveAgentLimits({ maxRunningTasksPerUser: 0 })).toThrow(ConfigError);
    expect(() => resolveAgentLimits({ budgetCeilings: { maxSteps: 1.5 } })).toThrow(
      /budget ceilings: maxSteps/,
    );
  });

  it('count running tasks per user, refuse one past the cap, and free a slot once', () => {
    const running = new RunningTasks(2);
    const first = running.admit('alice');
    running.admit('alice');
    running.admit('bob');
    let refused: unknown;
    try {
      running.admit('alice');
    } catch (error) {
      refused = error;
    }
    expect(RateLimitedError.isInstance(refused)).toBe(true);
    expect((refused as RateLimitedError).details).toMatchObject({ running: 2, limit: 2 });
    first();
    first();
    expect(running.count('alice')).toBe(1);
    expect(running.count('bob')).toBe(1);
    running.admit('alice');
    expect(running.count('alice')).toBe(2);
  });
});
