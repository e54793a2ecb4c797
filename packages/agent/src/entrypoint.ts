import {
  clampBudget,
  ConfigError,
  createContext,
  resolveBudget,
  silentLogger,
  toMcpAgentError,
  type AgentContext,
  type Budget,
  type ClampedBudget,
  type JsonValue,
  type Logger,
  type MCPTaskResult,
  type StepEvent,
  type TaskStatus,
} from '@mcp-agent/core';
import type { Dispatcher } from '@mcp-agent/actions';
import type { Sandbox } from '@mcp-agent/execution';
import type { Knowledge } from '@mcp-agent/knowledge';
import type { ConnectionPool, Registry } from '@mcp-agent/registry';
import { resolveAgentLimits, RunningTasks, type AgentLimits } from './agent-limits.js';
import { createAnthropicModelClient } from './model/anthropic-model-client.js';
import type { ModelClient } from './model/model-client.js';
import { BudgetTracker } from './planner/budget.js';
import { runLoop, type LoopDependencies } from './planner/planner.js';
import { PlannerContext } from './planner/planner-context.js';
import { connectorPrompt, systemPrompt } from './planner/prompts.js';

/** What an agent is made of. */
export interface AgentOptions {
  readonly registry: Registry;
  readonly pool: ConnectionPool;
  readonly knowledge: Knowledge;
  readonly dispatcher: Dispatcher;
  /** Without one, run_code answers that it is unavailable. */
  readonly sandbox?: Sandbox;
  /** Default: the Anthropic adapter from the environment, created per task when needed. */
  readonly model?: ModelClient;
  readonly logger?: Logger;
  /** How long to wait for the task's servers before failing it; default 30 s. */
  readonly readyTimeoutMs?: number;
  /** Offer query_connector by default; default false. */
  readonly connectors?: boolean;
  /** The operator's ceilings on every task's budget, and running tasks per user. */
  readonly limits?: AgentLimits;
}

/** Options of one task. */
export interface ExecuteTaskOptions {
  readonly threadId?: string;
  /** Only these servers, for this task. */
  readonly allowServers?: readonly string[];
  readonly budget?: Partial<Budget>;
  readonly signal?: AbortSignal;
  /** Step events as they happen: step-start, tool-call, observation, answer. */
  readonly onEvent?: (event: StepEvent) => void;
  readonly model?: ModelClient;
  /** Offer query_connector in this task. */
  readonly connectors?: boolean;
}

const EMPTY_USAGE = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

/**
 * The product's entry point. `executeTask(task, userId, options)` never throws: it always
 * returns an `MCPTaskResult` with a status, the partial trajectory and a structured error.
 */
export class Agent {
  readonly #options: AgentOptions;
  readonly #ceilings: Budget;
  readonly #running: RunningTasks;

  constructor(options: AgentOptions) {
    this.#options = options;
    const limits = resolveAgentLimits(options.limits);
    this.#ceilings = limits.budgetCeilings;
    this.#running = new RunningTasks(limits.maxRunningTasksPerUser);
  }

  async executeTask(
    task: string,
    userId: string,
    options: ExecuteTaskOptions = {},
  ): Promise<MCPTaskResult> {
    try {
      return await this.startTask(task, userId, options);
    } catch (thrown) {
      // Only admission throws: the user already runs as many tasks as allowed.
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
   * synchronous `RateLimitedError` (`details.retryAfterMs`), so a server can answer 429 at once.
   */
  startTask(
    task: string,
    userId: string,
    options: ExecuteTaskOptions = {},
  ): Promise<MCPTaskResult> {
    const release = this.#running.admit(userId);
    return this.#run(task, userId, options).finally(release);
  }

  async #run(task: string, userId: string, options: ExecuteTaskOptions): Promise<MCPTaskResult> {
    const started = performance.now();
    let ctx: AgentContext | undefined;
    let planner = new PlannerContext();
    let tracker: BudgetTracker | undefined;
    let budget: ClampedBudget | undefined;
    const finish = (status: TaskStatus, answer: string | null, thrown?: unknown): MCPTaskResult => {
      const error = thrown === undefined ? undefined : toMcpAgentError(thrown);
      return {
        status,
        answer,
        steps: planner.steps,
        toolsUsed: planner.toolsUsed,
        usage: tracker?.usage ?? EMPTY_USAGE,
        durationMs: Math.round(performance.now() - started),
        requestId: ctx?.requestId ?? 'none',
        ...(budget === undefined ? {} : { budget }),
        ...(error === undefined
          ? {}
          : { error: { code: error.code, message: error.message, details: error.details } }),
      };
    };
    try {
      if (typeof task !== 'string' || task.trim() === '')
        throw new ConfigError('The task is empty: say what should be done.');
      budget = clampBudget(resolveBudget(options.budget ?? {}), this.#ceilings);
      // The model is resolved first: a missing key fails before any server or model work.
      const model = options.model ?? this.#options.model ?? createAnthropicModelClient();
      ctx = createContext({
        userId,
        ...(options.threadId === undefined ? {} : { threadId: options.threadId }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        logger: this.#options.logger ?? silentLogger,
      });
      tracker = new BudgetTracker(budget.limits, ctx.clock);
      planner = new PlannerContext();
      const allow = options.allowServers;
      const servers = await this.#options.registry.activeServers(
        ctx,
        allow === undefined ? {} : { allow },
      );
      // Readiness gate: a failed server fails the task now, with its diagnostics, no tokens spent.
      await this.#options.pool.waitForReady(
        ctx,
        servers.map((s) => s.id),
        { timeoutMs: Math.min(this.#options.readyTimeoutMs ?? 30_000, tracker.remainingMs) },
      );
      const inventory = await this.#options.knowledge.inventoryView(
        ctx,
        allow === undefined ? {} : { allow },
      );
      const connectors = options.connectors ?? this.#options.connectors ?? false;
      const base = this.#loopBase(ctx, model, tracker, planner);
      const answer = await runLoop(
        {
          ...base,
          ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
          ...(allow === undefined ? {} : { allow }),
          ...(connectors
            ? {
                queryConnector: (id: string, query: string, extra: string | undefined) =>
                  this.#queryConnector(
                    base.ctx,
                    model,
                    base.budget,
                    base.planner,
                    servers.map((s) => s.id),
                    id,
                    query,
                    extra,
                  ),
              }
            : {}),
        },
        systemPrompt(inventory, { connectors }),
        task,
      );
      return finish('completed', answer);
    } catch (thrown) {
      const error = toMcpAgentError(thrown);
      if (ctx?.signal.aborted || error.code === 'CANCELLED')
        return finish('cancelled', null, ctx?.signal.reason ?? thrown);
      if (error.code === 'BUDGET_EXCEEDED') return finish('budget_exceeded', null, error);
      return finish('failed', null, error);
    }
  }

  // What every loop runs on, the task's and each connector sub-agent's.
  #loopBase(
    ctx: AgentContext,
    model: ModelClient,
    budget: BudgetTracker,
    planner: PlannerContext,
  ): LoopDependencies {
    const { knowledge, dispatcher, sandbox } = this.#options;
    return { ctx, model, knowledge, dispatcher, sandbox, budget, planner };
  }

  // A sub-agent scoped to one server, with its own prompt and a slice of the budget; its tokens
  // and tool calls count against the parent's.
  async #queryConnector(
    ctx: AgentContext,
    model: ModelClient,
    parent: BudgetTracker,
    parentPlanner: PlannerContext,
    active: readonly string[],
    connectorId: string,
    query: string,
    extra: string | undefined,
  ): Promise<JsonValue> {
    if (!active.includes(connectorId)) {
      return {
        error: {
          code: 'PROVIDER_NOT_FOUND',
          message: `No server "${connectorId.slice(0, 64)}" in this task. Servers: ${active.join(', ')}.`,
        },
      };
    }
    const slice = resolveBudget({
      maxSteps: 8,
      maxToolCalls: Math.max(1, Math.min(10, parent.remainingToolCalls)),
      maxOutputTokens: Math.max(1, Math.floor(parent.remainingOutputTokens / 2)),
      maxWallTimeMs: Math.max(1, Math.floor(parent.remainingMs / 2)),
    });
    const tracker = new BudgetTracker(slice, ctx.clock);
    const planner = new PlannerContext();
    const inventory = await this.#options.knowledge.inventoryView(ctx, { allow: [connectorId] });
    try {
      const answer = await runLoop(
        {
          ...this.#loopBase(ctx, model, tracker, planner),
          allow: [connectorId],
          onlyProvider: connectorId,
        },
        connectorPrompt(connectorId, inventory),
        extra === undefined ? query : `${query}\n\nContext: ${extra}`,
      );
      return { answer, tools_used: planner.toolsUsed };
    } catch (thrown) {
      const error = toMcpAgentError(thrown);
      if (error.code === 'CANCELLED' || ctx.signal.aborted) throw thrown;
      return { error: { code: error.code, message: error.message }, tools_used: planner.toolsUsed };
    } finally {
      parent.addUsage(tracker.usage);
      parent.addToolCalls(Math.min(tracker.toolCalls, parent.remainingToolCalls));
      for (const id of planner.toolsUsed) parentPlanner.used(id);
    }
  }
}
