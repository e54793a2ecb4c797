import type { ServerUsage, ModelUsage, Usage } from '@mcp-agent/core';

/** One model response of a task, as recorded. */
export interface ModelUsageRecord {
  /** The task (its request id). */
  readonly taskId: string;
  /** The model id as the endpoint was asked for it (the first 200 characters are kept). */
  readonly model: string;
  /** The response's tokens: input, output, cache reads and writes. */
  readonly usage: Usage;
  /** From the price table; `null` when the model has no price. */
  readonly estimatedCostUsd: number | null;
}

/** One tool call of a task (or of a gateway request), as recorded. */
export interface ToolCallRecord {
  /** The task (its request id), or the gateway request's id. */
  readonly taskId: string;
  /** The server the tool belongs to. */
  readonly server: string;
  /** False when the call failed; then it counts among the errors too. */
  readonly ok: boolean;
  /** How long the call took, in milliseconds (rounded when recorded). */
  readonly durationMs: number;
}

/** Token counts and estimated cost of a span of days. */
export interface UsageTotals extends Usage {
  /** Model requests (responses recorded). */
  readonly requests: number;
  /** Tool calls, failed ones included. */
  readonly toolCalls: number;
  /** Tool calls that failed. */
  readonly toolErrors: number;
  /** Time spent in tool calls, in milliseconds. */
  readonly toolDurationMs: number;
  /** Of the priced models; `unpricedModels` lists the others. */
  readonly estimatedCostUsd: number;
}

/** A tenant's usage over the last days: totals, each day, each server, each model. */
export interface UsageSummary {
  /** First and last UTC day covered (YYYY-MM-DD). */
  readonly from: string;
  /** Today (UTC). */
  readonly to: string;
  /** The sums over the whole span. */
  readonly totals: UsageTotals;
  /** Each day with any usage, oldest first; days without usage are left out. */
  readonly days: readonly (UsageTotals & {
    /** The UTC day (YYYY-MM-DD). */
    readonly day: string;
  })[];
  /** Each server's tool calls over the span, by name. */
  readonly servers: readonly ServerUsage[];
  /** Each model's tokens and cost over the span, by name; cost `null` when unpriced. */
  readonly models: readonly ModelUsage[];
  /** Models used without a price in the table: their cost is not in the totals. */
  readonly unpricedModels: readonly string[];
}

/** The longest span a summary covers. */
export const MAX_USAGE_DAYS = 366;

/** One task's usage, as recorded: what `Registry.taskUsage` answers. */
export interface TaskUsage {
  /** Each model the task used, by name. */
  readonly models: ModelUsage[];
  /** Each server whose tools it called, by name. */
  readonly servers: ServerUsage[];
}
