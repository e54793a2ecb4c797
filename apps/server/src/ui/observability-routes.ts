import { Hono, type Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { HttpBindings } from '@hono/node-server';
import {
  createContext,
  ErrorCode,
  InvalidArgumentsError,
  NotFoundError,
  NotReadyError,
  PolicyDeniedError,
  ServerNotFoundError,
  RateLimitedError,
  type Logger,
} from '@mcp-agent/core';
import type { AgentStack, DurableTasks } from '@mcp-agent/agent';
import type { TaskRecord } from '@mcp-agent/registry';
import type { OperatorToken } from '../auth/operator-token.js';
import type { HttpGateway } from '../gateway/http-gateway.js';
import type { TokenVerifier } from '../auth/token-verifier.js';
import type { Telemetry } from '../telemetry/start-telemetry.js';
import { isLogLevel, type LogBuffer, type LogEntry } from './log-buffer.js';
import { loadUiAssets, UI_HEADERS } from './ui-assets.js';
import { tenantContext, uiCaller, type UiCaller } from './ui-caller.js';
import {
  allConnections,
  explainedSearch,
  serverTools,
  taskEnd,
  taskRow,
  tenantServers,
  timelineEvent,
} from './ui-views.js';

/** What the server observes and shows: `/metrics`, the web UI and its data. */
export interface ObservabilityOptions {
  /** The SDK the app started: Prometheus text, the gateway's MCP trace log. */
  readonly telemetry?: Telemetry;
  /** The log lines the UI's live log shows. */
  readonly logs?: LogBuffer;
  /** The operator's token: `/metrics` and every tenant in the UI. Without one, both are off. */
  readonly operator?: OperatorToken;
  /** Serve the web UI at `/ui/`; default true. */
  readonly ui?: boolean;
}

type Env = { Bindings: HttpBindings; Variables: { caller: UiCaller } };

// Live streams (task timelines and logs) one user may hold open at once.
const MAX_STREAMS_PER_USER = 8;
const HEARTBEAT_MS = 15_000;

/**
 * `/metrics` (Prometheus text, operator token only) and the web UI: static files at `/ui/` and
 * their data under `/ui/api/` — servers with readiness and their call figures, a server's tools
 * with deep views and poisoning flags, explained search, tasks and live timelines, the gateway's
 * MCP traces, live logs. A user's token shows that user's data only; the operator token shows
 * every tenant (or one, with `?tenant=`) and the process's figures.
 */
export function observabilityRoutes(options: {
  readonly stack: AgentStack;
  /** The API's durable tasks (made on first use). */
  readonly tasks: () => DurableTasks;
  readonly verifier: TokenVerifier;
  readonly gateway?: HttpGateway;
  readonly logger?: Logger;
  readonly resourceMetadataUrl: (c: Context) => string;
  readonly observability: ObservabilityOptions;
}): Hono<Env> {
  const { stack, tasks, observability } = options;
  const { telemetry, logs, operator } = observability;
  const app = new Hono<Env>();
  const streams = new Map<string, number>();

  app.get('/metrics', async (c) => {
    if (operator === undefined)
      throw new NotFoundError(
        'Metrics are off: start the server with an operator token (--operator-token-file or MCP_AGENT_OPERATOR_TOKEN) and scrape /metrics with it.',
      );
    if (!operator.matches(c.req.header('authorization'))) {
      c.header('www-authenticate', 'Bearer realm="metrics"');
      return c.json(
        {
          error: {
            code: ErrorCode.Unauthorized,
            message:
              'Metrics need the operator token: send "Authorization: Bearer <operator token>".',
          },
        },
        401,
      );
    }
    const text = await telemetry?.prometheus();
    if (text === undefined)
      throw new NotReadyError(
        'Metrics are off: OpenTelemetry is disabled (OTEL_SDK_DISABLED=true) or was not started.',
      );
    return c.body(text, 200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
  });

  if (observability.ui === false) return app;

  const assets = loadUiAssets();
  const serve = (c: Context, name: string) => {
    const asset = assets.get(name);
    if (asset === undefined)
      return c.json({ error: { code: ErrorCode.NotFound, message: `No UI file ${name}.` } }, 404);
    return c.body(new Uint8Array(asset.body), 200, { ...UI_HEADERS, 'content-type': asset.type });
  };
  app.get('/ui', (c) => c.redirect('/ui/', 301));
  app.get('/ui/', (c) => serve(c, 'index.html'));
  app.get('/ui/assets/:name', (c) => serve(c, c.req.param('name')));

  app.use('/ui/api/*', async (c, next) => {
    const outcome = await uiCaller(c, {
      verifier: options.verifier,
      operator,
      resourceMetadataUrl: options.resourceMetadataUrl(c),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    });
    if (!('operator' in outcome)) {
      for (const [name, value] of Object.entries(outcome.headers)) c.header(name, value);
      return c.json({ error: { code: outcome.code, message: outcome.message } }, outcome.status);
    }
    c.set('caller', outcome);
    c.header('cache-control', 'no-store');
    await next();
  });

  const limitOf = (c: Context, fallback: number, max: number): number => {
    const raw = c.req.query('limit') ?? String(fallback);
    const limit = Number(raw);
    if (!/^\d+$/.test(raw) || limit < 1 || limit > max)
      throw new InvalidArgumentsError(`limit must be a whole number from 1 to ${max}.`);
    return limit;
  };

  app.get('/ui/api/session', (c) => {
    const caller = c.get('caller');
    return c.json({
      userId: caller.userId ?? null,
      operator: caller.operator,
      canStartTasks: caller.self,
      tracing: telemetry !== undefined && !telemetry.config.disabled,
      otlp: {
        traces: telemetry?.config.traces !== undefined,
        metrics: telemetry?.config.metrics !== undefined,
      },
      logs: logs !== undefined,
    });
  });

  app.get('/ui/api/servers', async (c) => {
    const caller = c.get('caller');
    if (caller.operator && caller.userId === undefined)
      return c.json({ scope: 'all', servers: allConnections(stack) });
    return c.json({ scope: 'tenant', servers: await tenantServers(stack, tenantContext(caller)) });
  });

  app.get('/ui/api/servers/:id/tools', async (c) => {
    const ctx = tenantContext(c.get('caller'));
    const id = c.req.param('id');
    const known = await stack.registry.activeServers(ctx, { includeDisabled: true });
    // Another tenant's server is the same "not found" as a missing one.
    if (!known.some((server) => server.id === id))
      throw new ServerNotFoundError(`No server "${id.slice(0, 64)}" for this user.`);
    return c.json({ server: id, tools: await serverTools(stack, ctx, id) });
  });

  app.get('/ui/api/search', async (c) => {
    const ctx = tenantContext(c.get('caller'));
    const query = (c.req.query('q') ?? '').slice(0, 2_000);
    if (query.trim() === '')
      throw new InvalidArgumentsError('Search needs words: ?q=<what the tool should do>.');
    return c.json({ query, results: await explainedSearch(stack, ctx, query, limitOf(c, 10, 50)) });
  });

  // A user's own task; the operator's (no user) any tenant's.
  const recordOf = async (c: Context<Env>): Promise<TaskRecord> => {
    const caller = c.get('caller');
    const id = c.req.param('id') ?? '';
    const record =
      caller.userId === undefined
        ? await stack.registry.tasks.findForOperator(id)
        : await tasks().get(caller.userId, id);
    if (record === undefined) throw new NotFoundError('No such task.');
    return record;
  };

  app.get('/ui/api/tasks', async (c) => {
    const caller = c.get('caller');
    const limit = limitOf(c, 1_000, 1_000);
    const rows =
      caller.userId === undefined
        ? await stack.registry.tasks.recentForOperator(limit)
        : await tasks().list(caller.userId, { limit });
    return c.json({ tasks: rows.map((record) => taskRow(record, caller.operator)) });
  });

  app.get('/ui/api/tasks/:id', async (c) => {
    const record = await recordOf(c);
    const events = await stack.registry.tasks.events(
      createContext({ userId: record.userId }),
      record.id,
      { limit: 1_000 },
    );
    return c.json({
      ...taskRow(record, c.get('caller').operator),
      events: events.map(({ event }) => timelineEvent(event)),
      end: record.status === 'running' ? null : taskEnd(record),
    });
  });

  const openStream = (c: Context<Env>) => {
    const key = c.get('caller').userId ?? '\u0000operator';
    const open = streams.get(key) ?? 0;
    if (open >= MAX_STREAMS_PER_USER)
      throw new RateLimitedError(
        `Too many live views open (at most ${MAX_STREAMS_PER_USER}); close a timeline or log view.`,
        { details: { retryAfterMs: 5_000 } },
      );
    streams.set(key, open + 1);
    return () => {
      const left = (streams.get(key) ?? 1) - 1;
      if (left > 0) streams.set(key, left);
      else streams.delete(key);
    };
  };
  const heartbeat = (stream: SSEStreamingApi) => {
    const timer = setInterval(() => {
      void stream.writeSSE({ event: 'ping', data: '' }).catch(() => undefined);
    }, HEARTBEAT_MS);
    timer.unref();
    return () => clearInterval(timer);
  };

  // The timeline as it happens: every event so far, then each new one, then `done`.
  app.get('/ui/api/tasks/:id/events', async (c) => {
    const record = await recordOf(c);
    const close = openStream(c);
    return streamSSE(c, async (stream) => {
      const stopBeat = heartbeat(stream);
      const stop = new AbortController();
      stream.onAbort(() => stop.abort());
      let index = 0;
      const send = (data: unknown, event: string) =>
        stream.writeSSE({ id: String(index++), event, data: JSON.stringify(data) });
      try {
        // Wherever the task runs: from memory here, from the database elsewhere.
        for await (const item of tasks().follow(record.userId, record.id, {
          signal: stop.signal,
        })) {
          if ('done' in item)
            await send(taskEnd({ ...record, status: item.done.status, result: item.done }), 'done');
          else await send(timelineEvent(item.event), item.event.type);
        }
      } finally {
        stopBeat();
        close();
      }
    });
  });

  app.get('/ui/api/traces', (c) => {
    const caller = c.get('caller');
    if (telemetry === undefined) return c.json({ enabled: false, traces: [] });
    const entries = telemetry.mcpTraces.list(caller.userId, limitOf(c, 200, 1_000));
    // A user sees their own entries; the user id is shown to the operator only.
    return c.json({
      enabled: !telemetry.config.disabled,
      traces: caller.operator ? entries : entries.map(({ userId: _userId, ...entry }) => entry),
    });
  });

  // Recent lines, then each new one, at the level asked for or above.
  app.get('/ui/api/logs', (c) => {
    const caller = c.get('caller');
    const level = c.req.query('level') ?? 'info';
    if (!isLogLevel(level))
      throw new InvalidArgumentsError('level is one of trace, debug, info, warn, error, fatal.');
    if (logs === undefined)
      throw new NotReadyError('Logs are not kept by this server (no log buffer).');
    const filter = { userId: caller.userId, minLevel: level };
    const recent = limitOf(c, 200, 2_000);
    const close = openStream(c);
    // Lines that arrive before the stream is open wait here; each line is sent once, in order.
    const early: LogEntry[] = [];
    let deliver: ((entry: LogEntry) => void) | undefined;
    let unsubscribe: () => void;
    try {
      unsubscribe = logs.subscribe(filter, (entry) => {
        if (deliver !== undefined) deliver(entry);
        else if (early.length < 1_000) early.push(entry);
      });
    } catch (refused) {
      close();
      throw refused;
    }
    return streamSSE(c, async (stream) => {
      const stopBeat = heartbeat(stream);
      let last = 0;
      const write = (entry: LogEntry) => {
        if (entry.seq <= last) return Promise.resolve();
        last = entry.seq;
        return stream
          .writeSSE({ id: String(entry.seq), event: 'log', data: JSON.stringify(entry) })
          .catch(() => undefined);
      };
      try {
        for (const entry of [...logs.recent(filter, recent), ...early]) await write(entry);
        deliver = (entry) => void write(entry);
        await new Promise<void>((resolve) => stream.onAbort(resolve));
      } finally {
        unsubscribe();
        stopBeat();
        close();
      }
    });
  });

  // The audit log of one tenant, newest first: a tenant's own, or with the operator token any
  // tenant's (`?tenant=`); `?before=<seq>` pages on.
  app.get('/ui/api/audit', async (c) => {
    const ctx = tenantContext(c.get('caller'));
    const raw = c.req.query('before');
    if (raw !== undefined && !/^\d{1,15}$/.test(raw))
      throw new InvalidArgumentsError(
        `before is an entry's seq, a whole number; got "${raw.slice(0, 20)}".`,
      );
    const entries = await stack.registry.auditTrail(ctx, {
      limit: limitOf(c, 100, 1_000),
      ...(raw === undefined ? {} : { before: Number(raw) }),
    });
    return c.json({ tenant: ctx.userId, entries });
  });

  // The operator's figures of the process; a tenant gets 403.
  app.get('/ui/api/process', async (c) => {
    if (!c.get('caller').operator)
      throw new PolicyDeniedError('The process figures are for the operator token.');
    const memory = process.memoryUsage();
    return c.json({
      uptimeSeconds: Math.round(process.uptime()),
      memory: { rss: memory.rss, heapUsed: memory.heapUsed, heapTotal: memory.heapTotal },
      pool: { sessions: stack.pool.size },
      gateway: options.gateway?.stats() ?? null,
      tasks: { runningHere: tasks().running, running: await stack.registry.tasks.runningCount() },
      traces: telemetry?.mcpTraces.size ?? 0,
      logs: logs?.stats ?? null,
      node: process.version,
    });
  });

  return app;
}
