import type { DispatchLink } from '../tool-call.js';

/** Logs each call's tool, caller, outcome and duration; never its arguments or result. */
export const loggingLink: DispatchLink = async (ctx, call, next) => {
  const started = performance.now();
  try {
    const result = await next(call);
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
  } catch (error) {
    ctx.logger.warn(
      {
        toolId: call.toolId,
        caller: call.caller,
        error: (error as Error).message?.slice(0, 300),
        ms: round(performance.now() - started),
      },
      'tool call failed',
    );
    throw error;
  }
};

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
