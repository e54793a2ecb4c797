import { randomUUID } from 'node:crypto';
import {
  CancelledError,
  ConfigError,
  createContext,
  ErrorCode,
  NotReadyError,
  silentLogger,
  systemClock,
  toMcpAgentError,
  type Clock,
  type JsonObject,
  type Logger,
  type MCPTaskResult,
  type StepEvent,
  sleep,
  failedTaskResult,
} from '@mcp-agent/core';
import type { Registry, TaskRecord } from '@mcp-agent/registry';
import type { Agent } from '../agent.js';
import type { ExecuteTaskOptions } from '../agent-options.js';
import type { DurableTasksOptions } from './durable-tasks-options.js';
import { RunningTask } from './running-task.js';
import { TaskLeasesKeeper } from './task-leases-keeper.js';

/** What a follower of a task receives: each event in order, then the end. */
export type TaskStreamItem =
  | {
      /** The event's place in the task, from 0; pass the last one seen as `after` to resume. */
      readonly seq: number;
      /** The step event, as `ExecuteTaskOptions.onEvent` received it. */
      readonly event: StepEvent;
    }
  | {
      /** The task's result: the last item of the stream. */
      readonly done: MCPTaskResult;
      /** Events past `maxEventsPerTask`, counted but not stored, so never followed. */
      readonly eventsDropped: number;
    };

/** What a task may be started with (its signal and events belong to the service). */
export type StartTaskOptions = Omit<ExecuteTaskOptions, 'signal' | 'onEvent'>;

// How long a cancel waits for the task to stop before answering with it still running.
const CANCEL_WAIT_MS = 5_000;

/**
 * Tasks that outlive the request that started them and the process that runs them: stored in
 * the registry's database with their step events and results, so any process on the database
 * reads a task, follows its events (from memory where it runs, by polling the database
 * elsewhere) and cancels it. The running-task cap per user is counted in the database, so it
 * holds across processes. A process heartbeats the leases of its tasks; when it dies, another
 * fails them with the reason within a bounded time. Finished tasks are kept for a bounded time
 * and number. What the HTTP API and the gateway's `execute_task` run on.
 *
 * @example
 * ```ts
 * const tasks = new DurableTasks({ agent: stack.agent, registry: stack.registry });
 * const record = await tasks.start('alice', 'Summarise the failed builds of yesterday');
 * for await (const item of tasks.follow('alice', record.id)) {
 *   if ('done' in item) console.log(item.done.status, item.done.answer);
 *   else console.log(item.seq, item.event.type);
 * }
 * await tasks.drain(10_000); // at shutdown: finish or cancel what runs here
 * await tasks.close();
 * ```
 */
export class DurableTasks {
  /** This process's id as the owner of its tasks (opaque; logged with the pid at start). */
  readonly owner = `proc_${randomUUID()}`;
  readonly #agent: Agent;
  readonly #registry: Registry;
  readonly #logger: Logger;
  readonly #clock: Clock;
  readonly #maxRunning: number;
  readonly #leaseMs: number;
  readonly #followPollMs: number;
  readonly #keepFinished: number;
  readonly #maxEvents: number;
  readonly #local = new Map<string, RunningTask>();
  readonly #ends = new Map<string, Promise<void>>();
  readonly #keeper: TaskLeasesKeeper;
  #draining = false;

  /**
   * Starts the sweep that fails the tasks of dead processes (lease renewals and the cancel poll
   * start with this process's first task); {@link close} stops them.
   *
   * @throws ConfigError (`CONFIG_INVALID`) naming a setting that is not a positive number.
   */
  constructor(options: DurableTasksOptions) {
    this.#agent = options.agent;
    this.#registry = options.registry;
    this.#logger = options.logger ?? silentLogger;
    this.#clock = options.clock ?? systemClock;
    this.#maxRunning = positive(
      'maxRunningPerUser',
      options.maxRunningPerUser ?? options.agent.limits.maxRunningTasksPerUser,
    );
    this.#leaseMs = positive('leaseMs', options.leaseMs ?? 15_000);
    this.#followPollMs = positive('followPollMs', options.followPollMs ?? 250);
    this.#keepFinished = positive('retention.maxPerUser', options.retention?.maxPerUser ?? 1_000);
    this.#maxEvents = positive('maxEventsPerTask', options.maxEventsPerTask ?? 10_000);
    const maxAgeMs = positive('retention.maxAgeMs', options.retention?.maxAgeMs ?? 7 * 86_400_000);
    this.#keeper = new TaskLeasesKeeper(
      this.owner,
      this.#registry,
      this.#local,
      {
        leaseMs: this.#leaseMs,
        renewMs: Math.max(100, Math.floor(this.#leaseMs / 3)),
        cancelPollMs: positive('cancelPollMs', options.cancelPollMs ?? 250),
        sweepMs: Math.max(250, Math.floor(this.#leaseMs / 2)),
        maxAgeMs,
      },
      this.#clock,
      this.#logger,
    );
    this.#logger.info(
      { owner: this.owner, pid: process.pid },
      'durable tasks: this process owns its tasks as this id',
    );
  }

  /** Tasks running in this process now. */
  get running(): number {
    return this.#local.size;
  }

  /**
   * Admits and starts a task of `userId`; resolves with it (running) as soon as it is stored.
   * Its end is written to the database; read it with {@link get} or {@link follow}.
   *
   * @throws RateLimitedError (`RATE_LIMITED`) past the user's running-task cap, counted over
   * every process on the database; `details.retryAfterMs` says when to try again.
   * @throws NotReadyError (`NOT_READY`) while this process drains for shutdown.
   */
  async start(userId: string, task: string, options: StartTaskOptions = {}): Promise<TaskRecord> {
    if (this.#draining)
      throw new NotReadyError(
        'This server is shutting down and takes no new tasks; send the task again (the load balancer routes it to another process).',
      );
    const ctx = createContext({ userId, clock: this.#clock, logger: this.#logger });
    // Admitted once, in the database over every process: the agent runs it without counting it
    // again in this process.
    const { record, admitted } = await this.#agent.admission.admitStored(
      this.#registry.tasks,
      ctx,
      {
        task,
        owner: this.owner,
        leaseMs: this.#leaseMs,
        maxRunning: this.#maxRunning,
        keepFinished: this.#keepFinished,
      },
    );
    const running = new RunningTask(record.id, ctx, this.#registry, this.#maxEvents, this.#logger);
    this.#local.set(record.id, running);
    const started = this.#agent.runAdmitted(admitted, task, {
      ...options,
      signal: running.controller.signal,
      onEvent: (event) => running.record(event),
    });
    this.#keeper.wake();
    const end = started.then((result) => this.#finish(running, result));
    this.#ends.set(record.id, end);
    return record;
  }

  /**
   * Runs a task to its end and returns its result, as `Agent.executeTask` does (never throws;
   * a refusal is a failed result), but stored and counted like every other: the gateway's
   * `execute_task`. Aborting `signal` cancels it.
   */
  async run(
    userId: string,
    task: string,
    options: StartTaskOptions & { signal?: AbortSignal } = {},
  ): Promise<MCPTaskResult> {
    const { signal, ...rest } = options;
    let record: TaskRecord;
    try {
      record = await this.start(userId, task, rest);
    } catch (thrown) {
      const error = toMcpAgentError(thrown);
      return refusedResult(error.code, error.message, error.details);
    }
    const running = this.#local.get(record.id);
    const cancel = () =>
      running?.controller.abort(signal?.reason ?? new CancelledError('The task was cancelled.'));
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      await this.#ends.get(record.id);
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
    return (
      running?.result ??
      (await this.get(userId, record.id))?.result ??
      refusedResult(ErrorCode.Internal, 'The task ended without a result.', {})
    );
  }

  /** The task, or `undefined` when the user has none by that id. */
  get(userId: string, id: string): Promise<TaskRecord | undefined> {
    return this.#registry.tasks.get(createContext({ userId, clock: this.#clock }), id);
  }

  /**
   * The user's tasks, newest first (see `TaskRepository.list`): at most `limit` (default 20),
   * and with `before` (the last one's `createdAt`) the page of older ones.
   */
  list(userId: string, options: { limit?: number; before?: string } = {}): Promise<TaskRecord[]> {
    return this.#registry.tasks.list(createContext({ userId, clock: this.#clock }), options);
  }

  /**
   * The task's events after `after` (a seq, -1 for all) as they happen, then its end; whichever
   * process runs it. Stops early when `signal` aborts. The caller checks the task exists: one
   * that is not the user's ends the stream at once, with nothing yielded.
   */
  async *follow(
    userId: string,
    id: string,
    options: { after?: number; signal?: AbortSignal } = {},
  ): AsyncGenerator<TaskStreamItem> {
    const ctx = createContext({ userId, clock: this.#clock });
    const { signal } = options;
    let after = options.after ?? -1;
    const here = this.#local.get(id);
    if (here !== undefined && here.ctx.userId === ctx.userId) {
      for (;;) {
        for (const stored of here.events.slice(after + 1)) {
          yield stored;
          after = stored.seq;
        }
        if (here.result !== undefined) {
          yield { done: here.result, eventsDropped: here.dropped };
          return;
        }
        if (signal?.aborted) return;
        await here.next(signal);
      }
    }
    // Run elsewhere (or already finished): read the database every followPollMs.
    for (;;) {
      const events = await this.#registry.tasks.events(ctx, id, { after });
      for (const stored of events) {
        yield stored;
        after = stored.seq;
      }
      if (events.length > 0) continue;
      const record = await this.#registry.tasks.get(ctx, id);
      if (record === undefined) return;
      if (record.status !== 'running' && record.result !== undefined) {
        // Events are written before the end, so what is left is read now.
        for (;;) {
          const rest = await this.#registry.tasks.events(ctx, id, { after });
          const last = rest.at(-1);
          if (last === undefined) break;
          yield* rest;
          after = last.seq;
        }
        yield { done: record.result, eventsDropped: record.eventsDropped };
        return;
      }
      if (signal?.aborted) return;
      await sleep(this.#followPollMs, signal).catch(() => undefined);
    }
  }

  /**
   * Cancels the task wherever it runs: here at once; elsewhere through the database, which its
   * owner reads every `cancelPollMs`. Waits up to 5 s for it to stop, then answers with the task
   * as it is; `undefined` when the user has none by that id.
   */
  async cancel(userId: string, id: string): Promise<TaskRecord | undefined> {
    const ctx = createContext({ userId, clock: this.#clock });
    const here = this.#local.get(id);
    if (here !== undefined && here.ctx.userId === ctx.userId) {
      here.controller.abort(new CancelledError('The task was cancelled through the API.'));
      await withTimeout(this.#ends.get(id), CANCEL_WAIT_MS);
      return this.#registry.tasks.get(ctx, id);
    }
    let record = await this.#registry.tasks.requestCancel(ctx, id);
    const deadline = performance.now() + CANCEL_WAIT_MS;
    while (record?.status === 'running' && performance.now() < deadline) {
      await sleep(50);
      record = await this.#registry.tasks.get(ctx, id);
    }
    return record;
  }

  /**
   * For a graceful shutdown: takes no new task, waits up to `timeoutMs` for the running ones to
   * finish, then cancels what is left (each ends `cancelled`, saying the server shut down) and
   * waits for those ends to be written.
   */
  async drain(timeoutMs: number): Promise<{
    /** Tasks of this process that ended on their own within `timeoutMs`. */
    finished: number;
    /** Tasks still running then, cancelled. */
    cancelled: number;
  }> {
    this.#draining = true;
    const before = this.#local.size;
    await withTimeout(Promise.all(this.#ends.values()), timeoutMs);
    const left = [...this.#local.values()];
    for (const running of left)
      running.controller.abort(
        new CancelledError('The server shut down before the task finished; start it again.'),
      );
    await withTimeout(Promise.all(this.#ends.values()), CANCEL_WAIT_MS);
    return { finished: before - left.length, cancelled: left.length };
  }

  /** Stops the timers, after cancelling whatever still runs here (see {@link drain}). */
  async close(): Promise<void> {
    if (this.#local.size > 0) await this.drain(0);
    this.#draining = true;
    this.#keeper.stop();
  }

  /** Fails the tasks of processes that stopped renewing their leases, now (the timer does it too). */
  sweep(): Promise<number> {
    return this.#keeper.sweep();
  }

  async #finish(running: RunningTask, result: MCPTaskResult): Promise<void> {
    try {
      await running.flushed();
      let recorded = false;
      for (let attempt = 0; attempt < 3 && !recorded; attempt += 1) {
        try {
          const won = await this.#registry.tasks.finish(
            running.ctx,
            running.id,
            this.owner,
            result,
            running.dropped,
          );
          recorded = true;
          if (!won)
            this.#logger.warn(
              { taskId: running.id },
              'task end not recorded: it was failed as lost (this process missed its heartbeats)',
            );
        } catch (error) {
          if (attempt === 2)
            this.#logger.error(
              { taskId: running.id, error: toMcpAgentError(error).message },
              'task end not recorded; another process will fail it when its lease ends',
            );
          else await sleep(200 * (attempt + 1));
        }
      }
    } finally {
      running.finished(result);
      this.#local.delete(running.id);
      this.#ends.delete(running.id);
    }
  }
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 1)
    throw new ConfigError(
      `Invalid durable task setting ${name}: ${String(value)}; a positive number.`,
    );
  return value;
}

async function withTimeout(promise: Promise<unknown> | undefined, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise,
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}

function refusedResult(code: ErrorCode, message: string, details: JsonObject): MCPTaskResult {
  return failedTaskResult({ code, message, details });
}
