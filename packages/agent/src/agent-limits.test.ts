import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_BUDGET_CEILINGS } from '@mcp-agent/core';
import { DEFAULT_MAX_RUNNING_TASKS_PER_USER, resolveAgentLimits } from './agent-limits.js';

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
});
