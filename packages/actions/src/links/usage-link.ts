import { TASK_METER, type Registry } from '@mcp-agent/registry';
import type { DispatchLink } from '../tool-call.js';

/**
 * Records every call that reaches a server — from the model or from code — for its tenant, its
 * task (`ctx.taskId`: the request's id unless its caller gave one) and its server: success or
 * failure and duration, in the database and on the task's meter. A failure to record is logged,
 * never the call's failure: the call happened, and its result is not thrown away. `usage` is the
 * registry (`usageLink(registry)`).
 */
export function usageLink(usage: Pick<Registry, 'recordToolCall'>): DispatchLink {
  return async (ctx, call, next) => {
    const started = performance.now();
    let ok = false;
    try {
      const result = await next(call);
      ok = result.isError !== true;
      return result;
    } finally {
      const durationMs = performance.now() - started;
      ctx.find(TASK_METER)?.addToolCall(call.serverId, ok, durationMs);
      // Awaited as it is (a chained catch would cost the answer one more tick).
      try {
        await usage.recordToolCall(ctx, {
          taskId: ctx.taskId,
          server: call.serverId,
          ok,
          durationMs,
        });
      } catch (error) {
        ctx.logger.error(
          { toolId: call.toolId, error: (error as Error).message?.slice(0, 300) },
          'could not record tool usage',
        );
      }
    }
  };
}
