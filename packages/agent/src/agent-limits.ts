import { ConfigError, RateLimitedError, resolveBudgetCeilings, type Budget } from '@mcp-agent/core';

/**
 * The operator's limits on every task, whichever surface starts it (the library, the HTTP API,
 * the gateway's execute_task): what a caller asks for is held to them. Checked when the agent
 * is built: a bad value is a `ConfigError` (`CONFIG_INVALID`) naming it.
 *
 * @example
 * ```ts
 * // No task past 30 steps or one minute, whatever its caller asks; two running tasks per user.
 * const limits: AgentLimits = {
 *   budgetCeilings: { maxSteps: 30, maxWallTimeMs: 60_000 },
 *   maxRunningTasksPerUser: 2,
 * };
 * const stack = await openAgentStack({ limits });
 * ```
 */
export interface AgentLimits {
  /** No task's budget goes past these; default `DEFAULT_BUDGET_CEILINGS`. */
  readonly budgetCeilings?: Partial<Budget>;
  /** Tasks one user may run at once; one more is refused with `RATE_LIMITED`. Default 4. */
  readonly maxRunningTasksPerUser?: number;
}

/** Running tasks per user unless the operator says otherwise. */
export const DEFAULT_MAX_RUNNING_TASKS_PER_USER = 4;

/** How long a refused caller is told to wait: tasks are short, and a slot frees at any moment. */
const RETRY_AFTER_MS = 5_000;

/** {@link AgentLimits} filled with defaults and checked; a `ConfigError` names a bad one. */
export function resolveAgentLimits(limits: AgentLimits = {}): {
  /** Every limit's ceiling, the operator's over `DEFAULT_BUDGET_CEILINGS`. */
  readonly budgetCeilings: Budget;
  /** Tasks one user may run at once in this agent. */
  readonly maxRunningTasksPerUser: number;
} {
  const max = limits.maxRunningTasksPerUser ?? DEFAULT_MAX_RUNNING_TASKS_PER_USER;
  if (!Number.isInteger(max) || max < 1)
    throw new ConfigError(
      `Invalid maxRunningTasksPerUser: ${String(max)}. It is a positive whole number.`,
    );
  return {
    budgetCeilings: resolveBudgetCeilings(limits.budgetCeilings ?? {}),
    maxRunningTasksPerUser: max,
  };
}

/** The refusal of one task past the user's running-task limit (429 with Retry-After). */
export function runningTasksRefusal(running: number, limit: number): RateLimitedError {
  return new RateLimitedError(
    `This user already runs ${running} tasks, the most allowed at once (maxRunningTasksPerUser). Wait for one to finish or cancel one, then try again.`,
    { details: { running, limit, retryAfterMs: RETRY_AFTER_MS } },
  );
}
