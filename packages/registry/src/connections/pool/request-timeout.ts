import {
  ErrorCode as McpErrorCode,
  McpError,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { TimeoutError } from '@mcp-agent/core';

/** What one request saw of its server's progress, for the message of its timeout. */
export class ProgressSeen {
  count = 0;
  last: Progress | undefined;

  /** A progress listener that counts, then hands each notification on to `next`. */
  listen(next: (progress: Progress) => void): (progress: Progress) => void {
    return (progress) => {
      this.count += 1;
      this.last = progress;
      next(progress);
    };
  }
}

/**
 * The SDK's request timeout (MCP error -32001, "Request timed out") as a `TimeoutError` that says
 * which server, which limit, what progress came, and how to raise the limit; any other error
 * unchanged. `timeoutMs` is the request's limit without an answer or progress, `ceilingMs` the
 * limit on the whole request even while progress arrives.
 */
export function explainTimeout(
  error: unknown,
  serverId: string,
  limits: { readonly timeoutMs: number; readonly ceilingMs: number },
  seen: ProgressSeen,
): unknown {
  // The SDK gives a cancellation the same code, with the abort's reason as its message.
  if (!(error instanceof McpError) || error.code !== Number(McpErrorCode.RequestTimeout))
    return error;
  const ceiling = /Maximum total timeout exceeded/.test(error.message);
  if (!ceiling && !/Request timed out/.test(error.message)) return error;
  const progress =
    seen.last === undefined
      ? 'and no progress'
      : `after ${seen.count} progress notification${seen.count === 1 ? '' : 's'}, the last ${describeProgress(seen.last)}`;
  const message = ceiling
    ? `Server "${serverId}" ran past the ${seconds(limits.ceilingMs)} ceiling on one request (${progress}); the operator raises it (the pool's maxTotalTimeoutMs).`
    : `Server "${serverId}" sent no answer within ${seconds(limits.timeoutMs)} (${progress}). Raise the limit for one call ("mcp-agent tools call … --timeout <seconds>"), or the server's timeoutMs ("mcp-agent servers add ${serverId} … --timeout <seconds> --replace").`;
  return new TimeoutError(message, {
    cause: error,
    details: {
      serverId,
      limit: ceiling ? 'maxTotalTimeoutMs' : 'timeoutMs',
      limitMs: ceiling ? limits.ceilingMs : limits.timeoutMs,
      progressNotifications: seen.count,
    },
  });
}

function describeProgress(progress: Progress): string {
  const of = progress.total === undefined ? '' : ` of ${progress.total}`;
  const words = progress.message === undefined ? '' : ` ("${progress.message.slice(0, 80)}")`;
  return `${progress.progress}${of}${words}`;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
