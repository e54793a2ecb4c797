import { TASK_METER, type Registry } from '@mcp-agent/registry';
import type { DispatchLink } from '../tool-call.js';

/**
 * Checks the tenant's quotas before each call (`maxCallsPerHour`; `maxServersPerThread` for the
 * context's thread, or its task's servers), counted in the database so every process shares
 * them. A call past a limit is refused with `QUOTA_EXCEEDED` and never reaches the server.
 * `quotas` is the registry (`quotaLink(registry)`).
 */
export function quotaLink(
  quotas: Pick<Registry, 'admitToolCall'> & Partial<Pick<Registry, 'admitToolCallNow'>>,
): DispatchLink {
  return (ctx, call, next) => {
    const taskServers = ctx.find(TASK_METER)?.servers;
    const options = {
      threadId: ctx.threadId,
      ...(taskServers === undefined ? {} : { taskServers }),
    };
    // Admitted at once on the hot path: the call goes on without a tick in between.
    if (quotas.admitToolCallNow?.(ctx, options) === true) return next(call);
    return quotas.admitToolCall(ctx, call.serverId, options).then(() => next(call));
  };
}
