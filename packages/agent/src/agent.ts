import {
  clampBudget,
  ConfigError,
  createCheckedContext,
  ErrorCode,
  parseUserId,
  renamedOption,
  resolveBudget,
  silentLogger,
  toMcpAgentError,
  type AgentContext,
  type Budget,
  type ClampedBudget,
  type MCPTaskResult,
  type TaskStatus,
  type UserId,
} from '@mcp-agent/core';
import { AVAILABILITY, TASK_METER, TaskMeter } from '@mcp-agent/registry';
import { resolveAgentLimits } from './agent-limits.js';
import { TaskAdmission, type AdmittedTask } from './tasks/task-admission.js';
import { meterModel } from './model/metered-model.js';
import { createModelClientFromEnv } from './model/model-from-env.js';
import type { ModelClient } from './model/model-client.js';
import { resolvePrices, type PriceTable } from './model/model-prices.js';
import { BudgetTracker } from './planner/budget.js';
import { serverAgentPrompt } from './planner/prompts.js';
import { runLoop } from './planner/run-loop.js';
import { firstUserMessage, parseTaskContext } from './input/task-context.js';
import { Trajectory } from './planner/trajectory.js';
import type { AgentOptions, ExecuteTaskOptions } from './agent-options.js';
import { MetaToolSession } from './session/meta-tool-session.js';
import { modeSurface, type ModeSurface } from './planner/tool-modes.js';
import { queryServer, type QueryServerInput } from './session/meta-tools/query-server.js';
import { failed, observed, type Observation } from './session/observation.js';
import { traceTask } from './telemetry/task-span.js';

const EMPTY_USAGE = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

/** One task (or one server sub-task) as it runs: its context, budget, session and trail. */
interface Run {
  readonly ctx: AgentContext;
  readonly model: ModelClient;
  readonly budget: BudgetTracker;
  readonly session: MetaToolSession;
  readonly trajectory: Trajectory;
}

/**
 * The product's entry point. `executeTask(task, userId, options)` never throws: it always
 * returns an `MCPTaskResult` with a status, the partial trajectory and a structured error.
 * Most hosts get one from {@link openAgentStack}; one per process serves every user, each task
 * in its own context, budget and session.
 *
 * @example
 * ```ts
 * const { agent, close } = await openAgentStack({ limits: { maxRunningTasksPerUser: 2 } });
 * const result = await agent.executeTask('How many open issues has acme/api?', 'alice');
 * console.log(result.status, result.answer, result.usage.estimatedCostUsd);
 * await close();
 * ```
 */
export class Agent {
  readonly #options: AgentOptions;
  readonly #ceilings: Budget;
  readonly #admission: TaskAdmission;
  readonly #limits: ReturnType<typeof resolveAgentLimits>;
  readonly #prices: PriceTable;

  /**
   * @throws ConfigError (`CONFIG_INVALID`) when `limits`, `prices` or `MCP_AGENT_MODEL_PRICES`
   * is invalid (a ceiling or running-task cap that is not a positive number, a negative price),
   * naming the setting: a mistyped deployment fails at start, not on its first task.
   */
  constructor(options: AgentOptions) {
    this.#options = options;
    this.#limits = resolveAgentLimits(options.limits);
    this.#ceilings = this.#limits.budgetCeilings;
    this.#admission = new TaskAdmission(this.#limits.maxRunningTasksPerUser);
    this.#prices = resolvePrices(options.prices);
  }

  /** The operator's limits in force, defaults filled in. */
  get limits(): ReturnType<typeof resolveAgentLimits> {
    return this.#limits;
  }

  /**
   * Runs `task` for `userId` to an answer, a limit or a failure. `userId` must already be
   * canonical (core's `parseUserId`): a look-alike such as `"alice "` is refused
   * (`INVALID_ARGUMENTS`), never mapped onto `alice`. Never throws: an invalid user id, a refusal
   * at admission (the user already runs as many tasks as allowed), a spent budget or quota, a
   * cancel or a model failure is a result whose `status` says which (`failed`,
   * `budget_exceeded`, `quota_exceeded`, `cancelled`) and whose `error.code` is the stable code.
   *
   * @example
   * ```ts
   * const result = await agent.executeTask('Open an issue for the failing build', 'alice', {
   *   budget: { maxSteps: 8 },
   * });
   * if (result.status === 'completed') console.log(result.answer);
   * else console.error(result.error?.code, result.error?.message);
   * ```
   */
  async executeTask(
    task: string,
    userId: string,
    options: ExecuteTaskOptions = {},
  ): Promise<MCPTaskResult> {
    try {
      return await this.startTask(task, userId, options);
    } catch (thrown) {
      // Only admission throws: an invalid user id, or a user who runs as many tasks as allowed.
      const error = toMcpAgentError(thrown);
      return {
        status: 'failed',
        answer: null,
        steps: [],
        toolsUsed: [],
        usage: EMPTY_USAGE,
        durationMs: 0,
        requestId: 'none',
        error: { code: error.code, message: error.message, details: error.details },
      };
    }
  }

  /**
   * Like {@link executeTask}, but a task past the user's running-task limit is refused by a
   * synchronous throw, so a server can answer 429 at once; every later failure is a result.
   *
   * @throws InvalidArgumentsError (`INVALID_ARGUMENTS`, synchronously) when `userId` is not a
   * canonical user id (`details.reason` says why).
   * @throws RateLimitedError (`RATE_LIMITED`, synchronously) when `userId` already runs
   * `maxRunningTasksPerUser` tasks in this agent; `details.retryAfterMs` says when to try again.
   */
  startTask(
    task: string,
    userId: string,
    options: ExecuteTaskOptions = {},
  ): Promise<MCPTaskResult> {
    return this.runAdmitted(this.#admission.admit(parseUserId(userId)), task, options);
  }

  /** Where this agent's tasks are admitted: in memory here, or stored (`DurableTasks`). */
  get admission(): TaskAdmission {
    return this.#admission;
  }

  /**
   * Runs a task that {@link admission} admitted (a durable task, counted in the database), as
   * {@link startTask} does, without counting it again; its slot is released when it ends.
   */
  runAdmitted(
    admitted: AdmittedTask,
    task: string,
    options: ExecuteTaskOptions = {},
  ): Promise<MCPTaskResult> {
    admitted.take();
    const { userId } = admitted;
    return traceTask(userId, () => this.#execute(task, userId, options)).finally(() =>
      admitted.release(),
    );
  }

  async #execute(
    task: string,
    userId: UserId,
    options: ExecuteTaskOptions,
  ): Promise<MCPTaskResult> {
    const started = performance.now();
    let run: Run | undefined;
    let requestId = 'none';
    let budget: ClampedBudget | undefined;
    const meter = new TaskMeter();
    const finish = (status: TaskStatus, answer: string | null, thrown?: unknown): MCPTaskResult => {
      const error = thrown === undefined ? undefined : toMcpAgentError(thrown);
      return {
        status,
        answer,
        steps: run?.trajectory.steps ?? [],
        toolsUsed: run?.session.toolsUsed ?? [],
        usage: {
          ...(run?.budget.usage ?? EMPTY_USAGE),
          models: meter.models,
          servers: meter.serverUsage,
          estimatedCostUsd: meter.estimatedCostUsd,
        },
        durationMs: Math.round(performance.now() - started),
        requestId,
        ...(budget === undefined ? {} : { budget }),
        ...(error === undefined
          ? {}
          : { error: { code: error.code, message: error.message, details: error.details } }),
      };
    };
    let signal: AbortSignal | undefined;
    try {
      if (typeof task !== 'string' || task.trim() === '')
        throw new ConfigError('The task is empty: say what should be done.');
      budget = clampBudget(resolveBudget(options.budget ?? {}), this.#ceilings);
      const context = options.context === undefined ? undefined : parseTaskContext(options.context);
      // The model is resolved first: a missing key fails before any server or model work.
      const model = options.model ?? this.#options.model ?? (await createModelClientFromEnv());
      let ctx = createCheckedContext({
        userId,
        ...(options.threadId === undefined ? {} : { threadId: options.threadId }),
        ...(options.allowServers === undefined ? {} : { allowServers: options.allowServers }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        logger: this.#options.logger ?? silentLogger,
      }).with(TASK_METER, meter);
      requestId = ctx.requestId;
      signal = ctx.signal;
      const tracker = new BudgetTracker(budget.limits, ctx.clock);
      // The one availability pass of the task; readiness then comes from the pool itself.
      const availability = await this.#options.registry.availability(ctx);
      const states = await this.#options.pool.waitForReady(
        ctx,
        availability.active.map((server) => server.id),
        { timeoutMs: Math.min(this.#options.readyTimeoutMs ?? 30_000, tracker.remainingMs) },
      );
      ctx = ctx.with(AVAILABILITY, availability.withReadiness(states));
      // `connectors` was the name of `serverAgents` before issue 31: still obeyed, with a warning.
      const serverAgents =
        renamedOption(options, 'serverAgents', 'connectors', 'ExecuteTaskOptions') ??
        renamedOption(this.#options, 'serverAgents', 'connectors', 'AgentOptions') ??
        false;
      const metered = meterModel(model, {
        ctx,
        meter,
        store: this.#options.registry,
        prices: this.#prices,
      });
      const surface = await modeSurface(options.mode ?? 'discovery', ctx, this.#options.knowledge, {
        serverAgents,
      });
      run = this.#startRun(ctx, metered, tracker, serverAgents, surface);
      const answer = await runLoop(
        { ...run, ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }) },
        surface.system,
        firstUserMessage(task, context),
      );
      return finish('completed', answer);
    } catch (thrown) {
      const error = toMcpAgentError(thrown);
      if (signal?.aborted || error.code === ErrorCode.Cancelled)
        return finish('cancelled', null, signal?.reason ?? thrown);
      if (error.code === ErrorCode.BudgetExceeded) return finish('budget_exceeded', null, error);
      if (error.code === ErrorCode.QuotaExceeded) return finish('quota_exceeded', null, error);
      return finish('failed', null, error);
    }
  }

  /**
   * Resolves the model as a task would and throws its `ConfigError` when none is configured
   * (no key, no endpoint): what a host checks before accepting a task, so a task that cannot
   * run is refused at once instead of failing later.
   *
   * @throws ConfigError (`CONFIG_INVALID`) naming the missing variable when no
   * `AgentOptions.model` was given and the environment configures no model endpoint.
   */
  async checkModel(): Promise<void> {
    if (this.#options.model === undefined) await createModelClientFromEnv();
  }

  #startRun(
    ctx: AgentContext,
    model: ModelClient,
    budget: BudgetTracker,
    serverAgents: boolean,
    surface: Omit<ModeSurface, 'system'> = {},
  ): Run {
    const { knowledge, dispatcher, sandbox } = this.#options;
    const session = new MetaToolSession({
      knowledge,
      dispatcher,
      budget,
      ...surface,
      images: model.images !== false,
      ...(sandbox === undefined ? {} : { sandbox }),
      ...(serverAgents
        ? {
            extraTools: [
              queryServer((input, call) => this.#queryServer({ ...run, ctx: call.ctx }, input)),
            ],
          }
        : {}),
    });
    const run: Run = { ctx, model, budget, session, trajectory: new Trajectory() };
    return run;
  }

  // A sub-agent that sees one server, with its own prompt, session and a slice of the budget;
  // its tokens and tool calls count against the parent's.
  async #queryServer(
    parent: Run,
    { server_id: serverId, query, context }: QueryServerInput,
  ): Promise<Observation> {
    const availability = await this.#options.registry.availability(parent.ctx);
    if (!availability.active.some((server) => server.id === serverId)) {
      const active = availability.active.map((server) => server.id);
      return failed({
        code: ErrorCode.ServerNotFound,
        message: `No server "${serverId.slice(0, 64)}" in this task. Servers: ${active.join(', ')}.`,
      });
    }
    const ctx = createCheckedContext({
      userId: parent.ctx.userId,
      requestId: parent.ctx.requestId,
      ...(parent.ctx.threadId === undefined ? {} : { threadId: parent.ctx.threadId }),
      allowServers: [serverId],
      signal: parent.ctx.signal,
      clock: parent.ctx.clock,
      logger: this.#options.logger ?? silentLogger,
    })
      .with(AVAILABILITY, availability.restrictTo([serverId]))
      .with(TASK_METER, parent.ctx.get(TASK_METER));
    const budget = new BudgetTracker(
      resolveBudget({
        maxSteps: 8,
        maxToolCalls: Math.max(1, Math.min(10, parent.budget.remainingToolCalls)),
        maxOutputTokens: Math.max(1, Math.floor(parent.budget.remainingOutputTokens / 2)),
        maxWallTimeMs: Math.max(1, Math.floor(parent.budget.remainingMs / 2)),
      }),
      ctx.clock,
    );
    const sub = this.#startRun(ctx, parent.model, budget, false);
    try {
      const inventory = await this.#options.knowledge.inventoryView(ctx);
      const answer = await runLoop(
        sub,
        serverAgentPrompt(serverId, inventory),
        context === undefined ? query : `${query}\n\nContext: ${context}`,
      );
      return observed({ answer, tools_used: sub.session.toolsUsed });
    } catch (thrown) {
      const error = toMcpAgentError(thrown);
      if (error.code === ErrorCode.Cancelled || ctx.signal.aborted) throw thrown;
      return failed(error, { tools_used: sub.session.toolsUsed });
    } finally {
      parent.budget.addUsage(budget.usage);
      parent.budget.addToolCalls(Math.min(budget.toolCalls, parent.budget.remainingToolCalls));
      for (const id of sub.session.toolsUsed) parent.session.markUsed(id);
    }
  }
}
