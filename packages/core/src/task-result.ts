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
  /** Input tokens billed at the full rate: not read from or written to the prompt cache. */
  readonly inputTokens: number;
  /** Tokens the model generated. */
  readonly outputTokens: number;
  /** Input tokens read from the prompt cache (billed lower than `inputTokens`). */
  readonly cacheReadTokens: number;
  /** Input tokens written to the prompt cache (billed higher than `inputTokens`). */
  readonly cacheWriteTokens: number;
}

/** One model's share of a task: its tokens and what they are estimated to cost. */
export interface ModelUsage extends Usage {
  /** The model id as the endpoint was asked for it. */
  readonly model: string;
  /** Model requests made to it in this task. */
  readonly requests: number;
  /** From the operator's price table; `null` when the model has no price there. */
  readonly estimatedCostUsd: number | null;
}

/** One server's share of a task: tool calls, failures, time. */
export interface ServerUsage {
  /** The server's id. */
  readonly server: string;
  /** Tool calls that reached the server, from the model or from sandboxed code. */
  readonly calls: number;
  /** Those of `calls` that failed or returned an error result. */
  readonly errors: number;
  /** Milliseconds spent in those calls, summed (calls that overlap count twice). */
  readonly durationMs: number;
}

/**
 * A task's usage: the token totals of {@link Usage} (so existing readers keep working), plus
 * each model's tokens and estimated cost and each server's tool calls, when recorded.
 */
export interface TaskUsage extends Usage {
  /** Each model the task used, when its usage was recorded. */
  readonly models?: readonly ModelUsage[];
  /** Each server the task called, when its usage was recorded. */
  readonly servers?: readonly ServerUsage[];
  /** The sum over `models`; `null` when a model used has no price. */
  readonly estimatedCostUsd?: number | null;
}

/** One step of the trajectory: the command the model chose and what it saw back. */
export interface TaskStep {
  /** Its place in `steps`, from 0 (one model request can give several steps). */
  readonly index: number;
  /** The meta-tool the model called (`search_tools`, `call_tool`, `run_code`, …). */
  readonly command: string;
  /** Its arguments as the model sent them; JSON that did not parse as `{ invalid_json }`. */
  readonly arguments: JsonValue;
  /** What the model saw back, within its size budget. */
  readonly observation: JsonValue;
  /** False when the command failed; `observation` then carries the error. */
  readonly ok: boolean;
  /** Input tokens charged here: a model response's go to the first command it chose. */
  readonly inputTokens: number;
  /** Output tokens charged here, by the same rule. */
  readonly outputTokens: number;
  /** Milliseconds the command took (its model request too, for a response's first command). */
  readonly durationMs: number;
}

/** What `executeTask` returns, whatever happened. */
export interface MCPTaskResult {
  /** How the task ended; anything but `completed` comes with `error`. */
  readonly status: TaskStatus;
  /** The model's final text; `null` unless `status` is `completed`. */
  readonly answer: string | null;
  /** Every command the model ran, in order: the trajectory. */
  readonly steps: readonly TaskStep[];
  /** Tools called successfully, in the order first used, each once. */
  readonly toolsUsed: readonly ToolId[];
  /** Tokens over every model request, and each model's and server's share when recorded. */
  readonly usage: TaskUsage;
  /** Milliseconds from admission to the result. */
  readonly durationMs: number;
  /** The request id of the task's context (`none` when it was refused before it had one). */
  readonly requestId: string;
  /**
   * The limits the task ran under, after the operator's ceilings, and which asked-for limits
   * the ceilings lowered; absent when the task was refused before its budget was read.
   */
  readonly budget?: ClampedBudget;
  /** Why the task did not complete, as the error's JSON form; absent when it completed. */
  readonly error?: {
    /** The stable code (`BUDGET_EXCEEDED`, `QUOTA_EXCEEDED`, `CANCELLED`, …). */
    readonly code: ErrorCode;
    /** What went wrong, for a person. */
    readonly message: string;
    /** JSON-safe facts, for example the limit that was reached. */
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
