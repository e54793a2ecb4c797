import { createHash } from 'node:crypto';
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
      logger.info(
        {
          method: c.req.method,
          path: c.req.path,
          status,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
          ...(userId === undefined
            ? {}
            : { user: createHash('sha256').update(userId).digest('hex').slice(0, 12) }),
        },
        'request',
      );
    }
  };
}
