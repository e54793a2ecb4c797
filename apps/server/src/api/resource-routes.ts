import { Hono } from 'hono';
import { InvalidArgumentsError, McpAgentError, type ActionResponse } from '@mcp-agent/core';
import type { AgentStack } from '@mcp-agent/agent';
import { contextOf, type ApiEnv } from './api-request.js';

/**
 * The resource routes of the HTTP API, each scoped to the caller and passing the dispatcher's
 * middleware chain like a tool call (policy, rate limits, quotas, usage, tracing):
 * `GET /v1/servers/:id/resources` (resources and templates) and
 * `GET /v1/servers/:id/resources/read?uri=…` (the contents, whole, as embedded resources).
 */
export function resourceRoutes(options: { readonly stack: AgentStack }): Hono<ApiEnv> {
  const { stack } = options;
  const routes = new Hono<ApiEnv>();

  routes.get('/v1/servers/:id/resources', async (c) => {
    const response = await stack.dispatcher.listResources(contextOf(c), c.req.param('id'), {
      signal: c.req.raw.signal,
      caller: 'code',
    });
    return c.json(answer(response));
  });

  routes.get('/v1/servers/:id/resources/read', async (c) => {
    const uri = c.req.query('uri');
    if (uri === undefined || uri === '')
      throw new InvalidArgumentsError(
        'Say which resource: ?uri=<its URI>, as GET /v1/servers/:id/resources lists them.',
      );
    const server = c.req.param('id');
    const response = await stack.dispatcher.readResource(contextOf(c), server, uri, {
      signal: c.req.raw.signal,
      caller: 'code',
    });
    return c.json({ server, uri, contents: answer(response) });
  });

  return routes;
}

// The data of a successful response; a refusal is thrown with its code, so that the API's error
// handler answers its status (429 with Retry-After for a rate limit, 404, 403…).
function answer(response: ActionResponse) {
  if (response.ok) return response.data;
  throw new McpAgentError(response.error.code, response.error.message, {
    details: response.error.details,
  });
}
