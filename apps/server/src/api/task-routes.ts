import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { InvalidArgumentsError, NotFoundError } from '@mcp-agent/core';
import type { AgentStack, DurableTasks } from '@mcp-agent/agent';
import type { TaskRecord } from '@mcp-agent/registry';
import { contextOf, readBody, type ApiEnv } from './api-request.js';
import { taskBody } from './request-schemas.js';

/**
 * The task routes of the HTTP API, each scoped to the caller: `GET /v1/tasks` (newest first,
 * paged by `before`), `POST /v1/tasks`, `GET /v1/tasks/:id`, `GET /v1/tasks/:id/events` (SSE,
 * resumable by Last-Event-ID from any process), `DELETE /v1/tasks/:id` and
 * `POST /v1/tasks/:id/cancel`. Mounted behind the API's bearer auth and body limit.
 */
export function taskRoutes(options: {
  readonly stack: AgentStack;
  /** The API's durable tasks (made on first use). */
  readonly tasks: () => DurableTasks;
}): Hono<ApiEnv> {
  const { stack, tasks } = options;
  const routes = new Hono<ApiEnv>();
  const noTask = () => new NotFoundError('No such task.');
  const taskOf = async (c: Context<ApiEnv>): Promise<TaskRecord> => {
    const record = await tasks().get(c.get('userId'), c.req.param('id') ?? '');
    if (record === undefined) throw noTask();
    return record;
  };
  const describeTask = (record: TaskRecord) => ({
    id: record.id,
    task: record.task,
    status: record.status,
    result: record.result ?? null,
  });

  // The user's tasks, newest first; `before` (a task's createdAt) pages on to older ones.
  routes.get('/v1/tasks', async (c) => {
    const raw = c.req.query('limit') ?? '50';
    const limit = Number(raw);
    if (!/^\d+$/.test(raw) || limit < 1 || limit > 1_000)
      throw new InvalidArgumentsError(
        `limit must be a whole number from 1 to 1000, not "${raw.slice(0, 20)}"; page on with ?before=<createdAt of the last task>.`,
      );
    const before = c.req.query('before');
    const mine = await tasks().list(c.get('userId'), {
      limit,
      ...(before === undefined ? {} : { before }),
    });
    return c.json({
      tasks: mine.map((record) => ({
        id: record.id,
        task: record.task,
        status: record.status,
        createdAt: record.createdAt,
      })),
    });
  });

  routes.post('/v1/tasks', async (c) => {
    const input = await readBody(c, taskBody);
    // A task that cannot run (no model configured) is refused now, not accepted and failed later.
    await stack.agent.checkModel();
    // A tenant whose quota is used up is told now (429), not by a task that fails at once.
    await stack.registry.checkQuotas(contextOf(c));
    // Stored before it runs, so any process can answer for it. The operator's ceilings hold the
    // budget; past the user's running-task limit (over every process) the answer is 429.
    const record = await tasks().start(c.get('userId'), input.task, {
      ...(input.threadId === undefined ? {} : { threadId: input.threadId }),
      ...(input.allowServers === undefined ? {} : { allowServers: input.allowServers }),
      ...(input.budget === undefined ? {} : { budget: input.budget }),
      ...(input.context === undefined ? {} : { context: input.context }),
    });
    return c.json({ id: record.id, status: record.status }, 202);
  });

  routes.get('/v1/tasks/:id', async (c) => c.json(describeTask(await taskOf(c))));

  // Cancelling stops the task's model and tool calls, wherever it runs; the answer comes once
  // it has stopped.
  const cancel = async (c: Context<ApiEnv>) => {
    const record = await tasks().cancel(c.get('userId'), c.req.param('id') ?? '');
    if (record === undefined) throw noTask();
    return c.json(describeTask(record), record.status === 'running' ? 202 : 200);
  };
  routes.delete('/v1/tasks/:id', cancel);
  routes.post('/v1/tasks/:id/cancel', cancel);

  // Each event carries its place as its id: a client that lost the stream resumes after it
  // (Last-Event-ID), from this process or any other.
  routes.get('/v1/tasks/:id/events', async (c) => {
    const record = await taskOf(c);
    const last = Number(c.req.header('last-event-id'));
    const after = Number.isSafeInteger(last) && last >= 0 ? last : -1;
    return streamSSE(c, async (stream) => {
      const stop = new AbortController();
      stream.onAbort(() => stop.abort());
      for await (const item of tasks().follow(record.userId, record.id, {
        after,
        signal: stop.signal,
      })) {
        if ('done' in item) {
          if (item.eventsDropped > 0)
            await stream.writeSSE({
              event: 'events-dropped',
              data: JSON.stringify({
                dropped: item.eventsDropped,
                message: `${item.eventsDropped} events past the bound per task were not stored; the result's steps hold the whole trajectory.`,
              }),
            });
          await stream.writeSSE({ event: 'done', data: JSON.stringify(item.done) });
        } else
          await stream.writeSSE({
            id: String(item.seq),
            event: item.event.type,
            data: JSON.stringify(item.event),
          });
      }
    });
  });

  return routes;
}
