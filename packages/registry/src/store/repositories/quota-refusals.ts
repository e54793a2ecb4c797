import { QuotaExceededError } from '@mcp-agent/core';

/** The refusal of a server past `maxServersPerThread`: it does not reset by itself. */
export function serversExceeded(max: number, serverId: string): QuotaExceededError {
  return new QuotaExceededError(
    `Quota reached: maxServersPerThread is ${max}, and this thread already used ${max} other servers; "${serverId.slice(0, 64)}" would be one more. It does not reset by itself: start a new thread (or a task without one), or ask the operator to raise it.`,
    {
      details: {
        limit: 'maxServersPerThread',
        value: max,
        used: max,
        resetsAt: null,
        retryAfterMs: null,
      },
    },
  );
}

/** The refusal of a call or a model request past a windowed quota, with when it resets. */
export function exceeded(
  name: 'maxCallsPerHour' | 'maxTokensPerDay',
  value: number,
  period: string,
  windowStart: string,
  windowMs: number,
  now: number,
  used = value,
): QuotaExceededError {
  const resets = Date.parse(windowStart) + windowMs;
  const retryAfterMs = Math.max(0, resets - now);
  const resetsAt = new Date(resets).toISOString();
  return new QuotaExceededError(
    `Quota reached: ${name} is ${value} (used ${used} ${period}). It resets at ${resetsAt} (in ${Math.ceil(retryAfterMs / 60_000)} min).`,
    { details: { limit: name, value, used, resetsAt, retryAfterMs } },
  );
}
