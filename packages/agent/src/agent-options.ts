import type { Budget, Logger, StepEvent } from '@mcp-agent/core';
import type { Dispatcher } from '@mcp-agent/actions';
import type { Sandbox } from '@mcp-agent/execution';
import type { Knowledge } from '@mcp-agent/knowledge';
import type { ConnectionPool, Registry } from '@mcp-agent/registry';
import type { AgentLimits } from './agent-limits.js';
import type { ModelClient } from './model/model-client.js';
import type { PriceTable } from './model/model-prices.js';
import type { TaskContext } from './input/task-context.js';
import type { ToolMode } from './planner/tool-modes.js';

/**
 * What an agent is made of: the parts {@link openAgentStack} wires on the defaults. A host that
 * builds its own (another pool, a dispatcher with its own links) passes them here.
 */
export interface AgentOptions {
  /** Where each task reads the user's servers and their availability, quotas and usage. */
  readonly registry: Registry;
  /** Only its readiness wait is used: a `ConnectionPool`, or a double in unit tests. */
  readonly pool: Pick<ConnectionPool, 'waitForReady'>;
  /** Answers search_tools and describe_tools, and gives the inventory the system prompt shows. */
  readonly knowledge: Knowledge;
  /** Runs every tool call, from call_tool and from run_code alike, through its middleware. */
  readonly dispatcher: Dispatcher;
  /** Without one, run_code answers that it is unavailable. */
  readonly sandbox?: Sandbox;
  /** Default: the adapter `MCP_AGENT_MODEL` (or the Anthropic variables) name, created per task. */
  readonly model?: ModelClient;
  /** Receives each task's logs, bound to its user and request ids; default silent. */
  readonly logger?: Logger;
  /** How long to wait for the task's servers before failing it; default 30 s. */
  readonly readyTimeoutMs?: number;
  /** Offer query_server (a sub-agent per server) by default; default false. Was `connectors`. */
  readonly serverAgents?: boolean;
  /** The operator's ceilings on every task's budget, and running tasks per user. */
  readonly limits?: AgentLimits;
  // Usage and cost (issue 17).
  /**
   * Model prices for the estimated cost, per model id, over the defaults and
   * `MCP_AGENT_MODEL_PRICES` (see `DEFAULT_MODEL_PRICES`).
   */
  readonly prices?: PriceTable;
}

/** Options of one task. */
export interface ExecuteTaskOptions {
  /**
   * The conversation the task belongs to: once servers were activated for this thread, only
   * those are used, and per-thread quotas count against it. Bound into the task's logs too.
   */
  readonly threadId?: string;
  /** Only these servers, for this task. */
  readonly allowServers?: readonly string[];
  /**
   * Limits of this task (steps, tool calls, tokens, wall time); unset ones take `DEFAULT_BUDGET`,
   * and each is lowered to the operator's ceiling (`AgentLimits.budgetCeilings`), the result's
   * `budget` saying which were. A bad limit fails the task with `CONFIG_INVALID`.
   */
  readonly budget?: Partial<Budget>;
  /** Aborting it cancels the task: the result is `cancelled`, with the steps made until then. */
  readonly signal?: AbortSignal;
  /** Step events as they happen: step-start, tool-call, observation, answer. */
  readonly onEvent?: (event: StepEvent) => void;
  /** The model of this task only, over `AgentOptions.model` and the environment's. */
  readonly model?: ModelClient;
  /** Offer query_server (a sub-agent per server) in this task. Was `connectors`. */
  readonly serverAgents?: boolean;
  /**
   * How the model reaches the tools (see {@link ToolMode}): the meta-tools (default), every
   * tool up front, or code only; the task suite compares them.
   */
  readonly mode?: ToolMode;
  /**
   * What the user's client knows (cwd, activeDocumentURI, selectionText, …): bounded and given
   * to the model as data the user supplied, in the first user message, never as instructions.
   */
  readonly context?: TaskContext;
}
