import type { MiddlewareHandler } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import { routePath } from 'hono/route';
import { instruments } from '@mcp-agent/core';

/**
 * Records every request's duration (`http.server.request.duration`, whose count is the request
 * count) by method, route pattern and status, when its response closes, so streams and the
 * gateway's own responses count too. The route is the pattern (`/v1/tasks/:id`), never the path,
 * so ids do not become series; an unmatched path is `unmatched`.
 */
export function httpMetrics(): MiddlewareHandler<{ Bindings: HttpBindings }> {
  return async (c, next) => {
    const started = performance.now();
    const outgoing = c.env?.outgoing;
    try {
      await next();
    } finally {
      // The last route that matched: the handler's pattern, or a middleware's when none did.
      const last = routePath(c, -1);
      const route = last === '*' || last === '/*' || last.endsWith('/*') ? 'unmatched' : last;
      const record = () =>
        recordHttpRequest(started, c.req.method, route, outgoing?.statusCode ?? c.res.status);
      if (outgoing === undefined || outgoing.writableFinished || outgoing.destroyed) record();
      else outgoing.once('close', record);
    }
  };
}

/**
 * Records one request's duration from `started` (`performance.now()`) until now, as
 * {@link httpMetrics} does; also for `/mcp`, served outside Hono.
 */
export function recordHttpRequest(
  started: number,
  method: string,
  route: string,
  status: number,
): void {
  instruments().httpDuration.record((performance.now() - started) / 1000, {
    'http.request.method': method,
    'http.route': route,
    'http.response.status_code': status,
  });
}
