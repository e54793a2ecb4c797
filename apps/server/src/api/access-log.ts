import { hash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '@mcp-agent/core';

/**
 * One access line per request at `info`: method, path (no query string, which may carry an
 * OAuth code or state), status, duration, and the user as the first 12 hex digits of the
 * SHA-256 of their id (omitted before authentication). Never a header, a token or a body.
 */
export function accessLog(logger: Logger): MiddlewareHandler<{ Variables: { userId: string } }> {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const userId = c.get('userId') as string | undefined;
      // A response written straight to the socket (the gateway) has its status there.
      const outgoing = (
        c.env as { outgoing?: { headersSent?: boolean; statusCode?: number } } | undefined
      )?.outgoing;
      const status =
        outgoing?.headersSent === true ? (outgoing.statusCode ?? c.res.status) : c.res.status;
      logAccess(logger, {
        method: c.req.method,
        path: c.req.path,
        status,
        durationMs: performance.now() - started,
        ...(userId === undefined ? {} : { userId }),
      });
    }
  };
}

/** One request's access line (see {@link accessLog}); also written for `/mcp`, served outside Hono. */
export function logAccess(
  logger: Logger,
  request: {
    readonly method: string;
    readonly path: string;
    readonly status: number;
    readonly durationMs: number;
    readonly userId?: string;
  },
): void {
  // Nothing built, nothing hashed, where access lines are not written.
  if (logger.isLevelEnabled?.('info') === false) return;
  logger.info(
    {
      method: request.method,
      path: request.path,
      status: request.status,
      durationMs: Math.round(request.durationMs * 10) / 10,
      ...(request.userId === undefined
        ? {}
        : { user: hash('sha256', request.userId, 'hex').slice(0, 12) }),
    },
    'request',
  );
}
