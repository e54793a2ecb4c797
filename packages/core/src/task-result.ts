import type { ClampedBudget } from './budget.js';
import type { ErrorCode } from './error-codes.js';
import type { JsonObject, JsonValue } from './json.js';
import type { ToolId } from './tool-id.js';

/**
 * How a task ended. `quota_exceeded`: a quota of the tenant (shared by every process) was used
 * up before the task finished; the error names the limit and when it resets.
 */
export type TaskStatus =
  'completed' | 'failed' | 'budget_exceeded' | 'quota_exceeded' | 'cancelled';

/** Model token usage, including prompt-cache reads and writes. */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

/** One model's share of a task: its tokens and what they are estimated to cost. */
export interface ModelUsage extends Usage {
  /** The model id as the endpoint was asked for it. */
  readonly model: string;
  readonly requests: number;
  /** From the operator's price table; `null` when the model has no price there. */
  readonly estimatedCostUsd: number | null;
}

/** One connector's (MCP server's) share of a task: tool calls, failures, time. */
export interface ConnectorUsage {
  readonly connector: string;
  readonly calls: number;
  readonly errors: number;
  readonly durationMs: number;
}

/**
 * A task's usage: the token totals of {@link Usage} (so existing readers keep working), plus
 * each model's tokens and estimated cost and each connector's tool calls, when recorded.
 */
export interface TaskUsage extends Usage {
  readonly models?: readonly ModelUsage[];
  readonly connectors?: readonly ConnectorUsage[];
  /** The sum over `models`; `null` when a model used has no price. */
  readonly estimatedCostUsd?: number | null;
}

/** One step of the trajectory: the command the model chose and what it saw back. */
export interface TaskStep {
  readonly index: number;
  readonly command: string;
  readonly arguments: JsonValue;
  readonly observation: JsonValue;
  readonly ok: boolean;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly durationMs: number;
}

/** What `executeTask` returns, whatever happened. */
export interface MCPTaskResult {
  readonly status: TaskStatus;
  readonly answer: string | null;
  readonly steps: readonly TaskStep[];
  readonly toolsUsed: readonly ToolId[];
  readonly usage: TaskUsage;
  readonly durationMs: number;
  readonly requestId: string;
  /**
   * The limits the task ran under, after the operator's ceilings, and which asked-for limits
   * the ceilings lowered; absent when the task was refused before its budget was read.
   */
  readonly budget?: ClampedBudget;
  readonly error?: {
    readonly code: ErrorCode;
    readonly message: string;
    readonly details: JsonObject;
  };
}

/**
 * A task that failed before (or without) running a step: no answer, no steps, no tokens. The
 * one place that writes this result out, for a refusal at admission, a stack that did not open,
 * or a task whose process was lost.
 *
 * @example
 * catch (thrown) { return failedTaskResult(toMcpAgentError(thrown)); }
 */
export function failedTaskResult(
  error: { readonly code: ErrorCode; readonly message: string; readonly details: JsonObject },
  durationMs = 0,
): MCPTaskResult {
  return {
    status: 'failed',
    answer: null,
    steps: [],
    toolsUsed: [],
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    durationMs,
    requestId: 'none',
    error: { code: error.code, message: error.message, details: error.details },
  };
}
