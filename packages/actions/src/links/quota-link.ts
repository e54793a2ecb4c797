import { TASK_METER, type QuotaRepository } from '@mcp-agent/registry';
import type { DispatchLink } from '../tool-call.js';

/**
 * Checks the tenant's quotas before each call (`maxCallsPerHour`; `maxServersPerThread` for the
 * context's thread, or its task's servers), counted in the database so every process shares
 * them. A call past a limit is refused with `QUOTA_EXCEEDED` and never reaches the server.
 */
export function quotaLink(quotas: Pick<QuotaRepository, 'beforeToolCall'>): DispatchLink {
  return async (ctx, call, next) => {
    const taskServers = ctx.find(TASK_METER)?.servers;
    await quotas.beforeToolCall(ctx, call.providerId, {
      threadId: ctx.threadId,
      ...(taskServers === undefined ? {} : { taskServers }),
    });
    return next(call);
  };
}
