import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import {
  ConfigError,
  createContext,
  ErrorCode,
  InvalidArgumentsError,
  NotReadyError,
  parseServerEntry,
  PayloadTooLargeError,
  ServerNotFoundError,
  silentLogger,
  toMcpAgentError,
  type Logger,
} from '@mcp-agent/core';
import { DurableTasks, type AgentStack } from '@mcp-agent/agent';
import { DEFAULT_MCP_REGISTRY_URL, MAX_USAGE_DAYS, McpRegistryClient } from '@mcp-agent/registry';
import type { HttpGateway } from '../gateway/http-gateway.js';
import { authenticateBearer, isCaller } from '../auth/bearer-auth.js';
import {
  PROTECTED_RESOURCE_PATH,
  protectedResourceMetadata,
  resourceMetadataUrl,
} from '../auth/protected-resource.js';
import type { TokenVerifier } from '../auth/token-verifier.js';
import { resolveServerLimits } from '../server-limits.js';
import { Readiness } from './readiness.js';
import { accessLog } from './access-log.js';
import { checkPublicUrl, publicBaseUrl, type PublicUrlOptions } from './public-url.js';
import { httpMetrics } from '../telemetry/http-metrics.js';
import { observabilityRoutes, type ObservabilityOptions } from '../ui/observability-routes.js';
import { resourceRoutes } from './resource-routes.js';
import { contextOf, readBody, type ApiEnv } from './api-request.js';
import { taskRoutes } from './task-routes.js';
import { openApiDocument } from './openapi.js';
import { OPENAPI_PATH } from './openapi-routes.js';
import { serverBody } from './request-schemas.js';

/** Options of {@link createHttpApi}. */
export interface HttpApiOptions extends PublicUrlOptions {
  /** The stack every route works on (`openAgentStack`); the caller closes it. */
  readonly stack: AgentStack;
  /** Says whose each bearer token is, for `/v1` and the gateway. */
  readonly verifier: TokenVerifier;
  /** The gateway served at `/mcp`. */
  readonly gateway?: HttpGateway;
  /** Request bodies under `/v1` past this many bytes get 413 before they are read; 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Where the access log and refusals go; default none. */
  readonly logger?: Logger;
  /**
   * Let tenants register stdio servers with any command. Those commands run on this host, so
   * the API refuses to start on a registry whose policy allows that, unless this is set (a
   * single trusted user). Open the stack with `userServers: MULTI_TENANT_POLICY` or an allowlist.
   */
  readonly trustTenantCommands?: boolean;
  /** The MCP Registry behind `GET /v1/registry/servers`; default the official one. */
  readonly mcpRegistryUrl?: string;
  /** `/metrics` and the web UI at `/ui/` (see `observabilityRoutes`); off when absent. */
  readonly observability?: ObservabilityOptions;
  /**
   * Where tasks are stored, counted and followed; default durable tasks on the stack's registry
   * (the caller then owns nothing to close: its timers do not hold the process open).
   */
  readonly tasks?: DurableTasks;
  /** True while the process drains for shutdown: `/ready` answers 503 so no new work comes. */
  readonly draining?: () => boolean;
}

const STATUS: Record<ErrorCode, number> = {
  INVALID_ARGUMENTS: 400,
  CONFIG_INVALID: 400,
  UNAUTHORIZED: 401,
  POLICY_DENIED: 403,
  SERVER_NOT_FOUND: 404,
  TOOL_NOT_FOUND: 404,
  NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  QUOTA_EXCEEDED: 429,
  NOT_READY: 503,
  INTERNAL: 500,
  TOOL_EXECUTION_FAILED: 500,
  BUDGET_EXCEEDED: 500,
  SANDBOX_ERROR: 500,
  CANCELLED: 500,
  TIMEOUT: 500,
  CREDENTIAL_UNREADABLE: 500,
};

// Every failed OAuth callback gets this one answer, so that nobody can learn from it which
// users exist, which servers they have, or whether a login is pending.
const CALLBACK_FAILED = {
  error: {
    code: ErrorCode.InvalidArguments,
    message:
      'This sign-in link is not valid: it is wrong, expired or already used. Start signing in again.',
  },
};

/**
 * The HTTP API (Hono): tasks (`POST /v1/tasks`, `GET /v1/tasks/:id`, `GET /v1/tasks/:id/events`
 * as server-sent events, `DELETE /v1/tasks/:id` or `POST /v1/tasks/:id/cancel`), the user's
 * usage and quotas (`GET /v1/usage?days=30`), per-user servers (`GET/POST /v1/servers`,
 * `DELETE /v1/servers/:id`, `GET /v1/servers/:id/status`), OAuth (`POST /v1/servers/:id/oauth`,
 * `GET /v1/oauth/callback`), the gateway at `/mcp`, `/health`, `/ready` and `/openapi.json` (the
 * API as OpenAPI 3.1, no token needed). Bearer auth on
 * everything under `/v1` (401 with a `WWW-Authenticate` challenge naming the protected-resource
 * metadata, served at `/.well-known/oauth-protected-resource` and `…/mcp`); bodies limited and
 * validated; errors as `{"error": {code, message}}` with stable codes.
 */
export function createHttpApi(options: HttpApiOptions): Hono<ApiEnv> {
  const { stack } = options;
  if (stack.registry.userServerPolicy.stdio === 'any' && options.trustTenantCommands !== true)
    throw new ConfigError(
      'The HTTP API serves many users, but its registry lets any user run any command on this host (stdio servers). Open the stack with userServers: MULTI_TENANT_POLICY (or an allowlist of stdio commands), or pass trustTenantCommands: true for a single trusted user.',
    );
  const { maxBodyBytes } = resolveServerLimits(
    options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes },
  );
  const urls: PublicUrlOptions = {
    ...(options.publicUrl === undefined ? {} : { publicUrl: checkPublicUrl(options.publicUrl) }),
    ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
  };
  const logger = options.logger ?? silentLogger;
  // Made at the first task route, so an API that serves no task starts no timer.
  let durable = options.tasks;
  const tasks = (): DurableTasks =>
    (durable ??= new DurableTasks({ agent: stack.agent, registry: stack.registry, logger }));
  const mcpRegistry = new McpRegistryClient({
    baseUrl: options.mcpRegistryUrl ?? DEFAULT_MCP_REGISTRY_URL,
  });
  const app = new Hono<ApiEnv>();
  app.use('*', accessLog(logger));
  app.use('*', httpMetrics());

  app.onError((thrown, c) => {
    const error = toMcpAgentError(thrown);
    // Rate limits and quotas say when to come back (RFC 9110 Retry-After, in seconds).
    const retryAfterMs = error.details.retryAfterMs;
    if (
      (error.code === ErrorCode.RateLimited || error.code === ErrorCode.QuotaExceeded) &&
      typeof retryAfterMs === 'number'
    )
      c.header('retry-after', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
    return c.json(
      { error: { code: error.code, message: error.message } },
      STATUS[error.code] as 500,
    );
  });
  app.notFound((c) =>
    c.json(
      { error: { code: ErrorCode.NotFound, message: `No route ${c.req.method} ${c.req.path}.` } },
      404,
    ),
  );

  app.get('/health', (c) => c.json({ ok: true }));
  // The API's shape, the same for everyone and holding no tenant's data: served without a token
  // so that a client generator or a gateway can read it.
  const openApi = openApiDocument(
    options.observability === undefined
      ? {}
      : { observability: { ui: options.observability.ui !== false } },
  );
  app.get(OPENAPI_PATH, (c) => c.json(openApi));
  // Ready to serve (the registry answers); tasks also need a model, and it says if there is none.
  // Answered from the last check (see Readiness), so a loaded process still answers at once.
  const readiness = new Readiness(async () => {
    await stack.registry.activeServers(createContext({ userId: 'readiness-probe' }));
    const problem = await stack.agent.checkModel().then(
      () => undefined,
      (thrown: unknown) => toMcpAgentError(thrown).message,
    );
    return problem === undefined
      ? { ready: true }
      : { ready: true, tasks: { available: false, reason: problem } };
  });
  app.get('/ready', async (c) => {
    if (options.draining?.() === true) return c.json({ ready: false, draining: true }, 503);
    const answer = await readiness.answer();
    return c.json(answer, answer.ready ? 200 : 503);
  });

  // The OAuth callback is a browser redirect: no bearer token; the state, stored per user in the
  // vault, is what proves the request belongs to the authorisation that user started.
  app.get('/v1/oauth/callback', async (c) => {
    const { user, server, code, state, iss } = c.req.query();
    try {
      if (!user || !server || !code || !state)
        throw new InvalidArgumentsError('The callback needs user, server, code and state.');
      await stack.oauth.finalizeOAuth(createContext({ userId: user }), server, code, state, iss);
    } catch (thrown) {
      // The operator sees why; the caller sees the same answer for every failure.
      const error = toMcpAgentError(thrown);
      logger.warn({ code: error.code, reason: error.message }, 'OAuth callback refused');
      return c.json(CALLBACK_FAILED, 400);
    }
    return c.text('Signed in; you can close this tab.');
  });

  app.all('/mcp', async (c) => {
    if (options.gateway === undefined) throw new NotReadyError('The gateway is not enabled here.');
    await options.gateway.handle(c.env.incoming, c.env.outgoing);
    return RESPONSE_ALREADY_SENT;
  });

  // ── Authentication (RFC 6750, RFC 9728): who is calling, and where an MCP client signs in ──
  const baseOf = (c: Context<ApiEnv>) =>
    publicBaseUrl(c.req.url, (name) => c.req.header(name), urls);
  for (const resource of ['', '/mcp'] as const) {
    // Browser-based MCP clients read it from another origin, with an MCP-Protocol-Version header.
    app.options(`${PROTECTED_RESOURCE_PATH}${resource}`, (c) => {
      c.header('access-control-allow-origin', '*');
      c.header('access-control-allow-methods', 'GET, OPTIONS');
      c.header('access-control-allow-headers', 'mcp-protocol-version');
      return c.body(null, 204);
    });
    app.get(`${PROTECTED_RESOURCE_PATH}${resource}`, (c) => {
      c.header('access-control-allow-origin', '*');
      return c.json(protectedResourceMetadata(baseOf(c), resource, options.verifier));
    });
  }
  app.use('/v1/*', async (c, next) => {
    const outcome = await authenticateBearer(c.req.header('authorization'), options.verifier, {
      resourceMetadataUrl: resourceMetadataUrl(baseOf(c), ''),
      logger,
    });
    if (!isCaller(outcome)) {
      for (const [name, value] of Object.entries(outcome.headers)) c.header(name, value);
      return c.json({ error: { code: outcome.code, message: outcome.message } }, outcome.status);
    }
    c.set('userId', outcome.userId);
    await next();
  });
  // ── end of authentication ──
  // Checked from Content-Length before anything is read, else counted while reading.
  app.use(
    '/v1/*',
    bodyLimit({
      maxSize: maxBodyBytes,
      onError: () => {
        throw new PayloadTooLargeError(
          `The request body is larger than ${maxBodyBytes} bytes, the most this server accepts (maxBodyBytes).`,
          { details: { maxBytes: maxBodyBytes } },
        );
      },
    }),
  );

  app.route('/', taskRoutes({ stack, tasks }));
  app.route('/', resourceRoutes({ stack }));

  // Usage (issue 17): the user's totals by day, server and model, and their quotas.
  app.get('/v1/usage', async (c) => {
    const raw = c.req.query('days') ?? '30';
    const days = Number(raw);
    if (!Number.isInteger(days) || days < 1 || days > MAX_USAGE_DAYS)
      throw new InvalidArgumentsError(
        `days must be a whole number from 1 to ${MAX_USAGE_DAYS}, got "${raw.slice(0, 20)}".`,
      );
    const ctx = contextOf(c);
    const [usage, quotas] = await Promise.all([
      stack.registry.usageSummary(ctx, { days }),
      stack.registry.quotaStatus(ctx),
    ]);
    return c.json({ usage, quotas });
  });

  app.get('/v1/servers', async (c) =>
    c.json({
      servers: await stack.registry.activeServers(contextOf(c), { includeDisabled: true }),
    }),
  );

  // One server: the canonical shape, or an mcpServers entry with its id ({id, command, args} or
  // {id, url}) whose transport is inferred as an import does. Placeholders are not expanded:
  // a tenant must not read this server's environment.
  app.post('/v1/servers', async (c) => {
    const input = await readBody(c, serverBody);
    const server = parseServerEntry(input, { expand: false });
    const record = await stack.registry.addServer(contextOf(c), server);
    return c.json(
      { server: { id: record.serverId, transport: record.transport, status: record.status } },
      201,
    );
  });

  app.delete('/v1/servers/:id', async (c) => {
    await stack.registry.removeServer(contextOf(c), c.req.param('id'));
    return c.body(null, 204);
  });

  // The server's own final state and the reason (see ConnectionPool.report), with its metrics.
  app.get('/v1/servers/:id/status', async (c) => {
    const ctx = contextOf(c);
    const id = c.req.param('id');
    const [report] = await stack.pool.report(ctx, { serverIds: [id], timeoutMs: 15_000 });
    if (report === undefined) throw new ServerNotFoundError(`No server "${id}" for this user.`);
    const state = stack.pool.status(ctx).find((s) => s.serverId === id);
    return c.json({ ...report, ...(state === undefined ? {} : { metrics: state.metrics }) });
  });

  // The MCP Registry, for a user's UI: servers whose name contains `search`, latest versions.
  app.get('/v1/registry/servers', async (c) => {
    const search = (c.req.query('search') ?? '').slice(0, 200);
    const raw = c.req.query('limit') ?? '20';
    const limit = Number(raw);
    if (!/^\d+$/.test(raw) || limit < 1 || limit > 1_000)
      throw new InvalidArgumentsError(
        `limit must be a whole number from 1 to 1000, not "${raw.slice(0, 20)}".`,
      );
    const cursor = c.req.query('cursor');
    const page = await mcpRegistry.search(search, {
      limit,
      ...(cursor === undefined ? {} : { cursor: cursor.slice(0, 500) }),
    });
    return c.json({ registry: mcpRegistry.baseUrl, ...page });
  });

  app.post('/v1/servers/:id/oauth', async (c) => {
    const ctx = contextOf(c);
    const id = c.req.param('id');
    const base = publicBaseUrl(c.req.url, (name) => c.req.header(name), urls);
    const redirect = `${base}/v1/oauth/callback?user=${encodeURIComponent(ctx.userId)}&server=${encodeURIComponent(id)}`;
    return c.json(await stack.oauth.startOAuth(ctx, id, redirect));
  });

  // ── Observability: /metrics for the operator, the web UI and its data ──
  if (options.observability !== undefined)
    app.route(
      '/',
      observabilityRoutes({
        stack,
        tasks,
        verifier: options.verifier,
        ...(options.gateway === undefined ? {} : { gateway: options.gateway }),
        logger,
        resourceMetadataUrl: (c) => resourceMetadataUrl(baseOf(c), ''),
        observability: options.observability,
      }),
    );

  return app;
}
