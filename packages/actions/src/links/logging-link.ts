import { promised } from '@mcp-agent/core';
import type { DispatchLink } from '../tool-call.js';

/**
 * Logs each call's tool, caller, outcome and duration; never its arguments or result. A success
 * (and a call its caller cancelled) is logged at debug, a failure at warn: at a level above debug (the usual one) a success builds
 * nothing and the call goes on without a frame of this link's own.
 */
export const loggingLink: DispatchLink = (ctx, call, next) => {
  const started = performance.now();
  const failed = (error: unknown): never => {
    // The caller's own cancel (a client's notifications/cancelled) is not a failure.
    if (ctx.signal.aborted) {
      ctx.logger.debug(
        { toolId: call.toolId, caller: call.caller, ms: round(performance.now() - started) },
        'tool call cancelled',
      );
      throw error;
    }
    ctx.logger.warn(
      {
        toolId: call.toolId,
        caller: call.caller,
        error: (error as Error | undefined)?.message?.slice(0, 300),
        ms: round(performance.now() - started),
      },
      'tool call failed',
    );
    throw error;
  };
  const answer = promised(() => next(call));
  if (ctx.logger.isLevelEnabled?.('debug') === false) return answer.catch(failed);
  return answer.then((result) => {
    ctx.logger.debug(
      {
        toolId: call.toolId,
        caller: call.caller,
        isError: result.isError === true,
        ms: round(performance.now() - started),
      },
      'tool call',
    );
    return result;
  }, failed);
};

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
