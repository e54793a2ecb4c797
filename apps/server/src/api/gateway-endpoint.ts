import type { IncomingMessage, ServerResponse } from 'node:http';
import { toMcpAgentError, type Logger } from '@mcp-agent/core';
import type { HttpGateway } from '../gateway/http-gateway.js';
import { recordHttpRequest } from '../telemetry/http-metrics.js';
import { logAccess } from './access-log.js';

/** Whether a request is for the gateway: the path `/mcp` exactly, as the API's route matches it. */
export function isGatewayRequest(req: IncomingMessage): boolean {
  const url = req.url ?? '';
  return url === '/mcp' || url.startsWith('/mcp?');
}

/**
 * The gateway at `/mcp` as a Node request handler, ahead of the API's Hono app: the gateway reads
 * and writes Node's request and response itself, so converting them to web ones first (and the
 * middleware chain) would only cost time on every call (`pnpm bench gateway`). What the app's
 * middleware does for every request is done here too: the access line and the request duration
 * (route `/mcp`), both when the response closes, so a stream counts until it ends.
 */
export function gatewayEndpoint(
  gateway: HttpGateway,
  logger: Logger,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    res.once('close', () => {
      recordHttpRequest(started, method, '/mcp', res.statusCode);
      logAccess(logger, {
        method,
        path: '/mcp',
        status: res.statusCode,
        durationMs: performance.now() - started,
      });
    });
    gateway.handle(req, res).catch((thrown: unknown) => {
      const error = toMcpAgentError(thrown);
      logger.error({ code: error.code, reason: error.message }, 'gateway request failed');
      if (res.headersSent) res.destroy();
      else
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { code: error.code, message: error.message } }));
    });
  };
}
