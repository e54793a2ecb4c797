import type { ClampedBudget } from './budget.js';
import type { ErrorCode } from './error-codes.js';
import type { JsonObject, JsonValue } from './json.js';
import type { ToolId } from './tool-id.js';

/** How a task ended. */
export type TaskStatus = 'completed' | 'failed' | 'budget_exceeded' | 'cancelled';

/** Model token usage, including prompt-cache reads and writes. */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
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
  readonly usage: Usage;
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
