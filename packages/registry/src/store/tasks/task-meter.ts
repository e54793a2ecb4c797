import { defineSlot, type ServerUsage, type ModelUsage, type Usage } from '@mcp-agent/core';

/**
 * One task's usage as it runs, in memory: each model's tokens and estimated cost, each
 * server's tool calls, and the servers it called (for `maxServersPerThread` when the task has
 * no thread). The agent attaches it to the task's context ({@link TASK_METER}); the dispatcher's
 * usage and quota links and the metered model add to it. The database keeps the same figures.
 */
export class TaskMeter {
  /** Servers whose tools the task called. */
  readonly servers = new Set<string>();
  readonly #models = new Map<string, { -readonly [K in keyof ModelUsage]: ModelUsage[K] }>();
  readonly #toolCalls = new Map<string, { calls: number; errors: number; durationMs: number }>();

  /** Adds one model response. */
  addModel(model: string, usage: Usage, estimatedCostUsd: number | null): void {
    const entry = this.#models.get(model) ?? {
      model,
      requests: 0,
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      estimatedCostUsd: 0,
    };
    entry.requests += 1;
    entry.inputTokens += usage.inputTokens;
    entry.outputTokens += usage.outputTokens;
    entry.cacheReadTokens += usage.cacheReadTokens;
    entry.cacheWriteTokens += usage.cacheWriteTokens;
    entry.estimatedCostUsd =
      entry.estimatedCostUsd === null || estimatedCostUsd === null
        ? null
        : entry.estimatedCostUsd + estimatedCostUsd;
    this.#models.set(model, entry);
  }

  /** Adds one tool call of `server`. */
  addToolCall(server: string, ok: boolean, durationMs: number): void {
    const entry = this.#toolCalls.get(server) ?? { calls: 0, errors: 0, durationMs: 0 };
    entry.calls += 1;
    if (!ok) entry.errors += 1;
    entry.durationMs += durationMs;
    this.#toolCalls.set(server, entry);
  }

  /** Each model's figures, in the order first used. */
  get models(): ModelUsage[] {
    return [...this.#models.values()].map((entry) => ({
      ...entry,
      estimatedCostUsd: entry.estimatedCostUsd === null ? null : roundUsd(entry.estimatedCostUsd),
    }));
  }

  /** Each server's tool calls, in the order first called; durations in whole ms. */
  get serverUsage(): ServerUsage[] {
    return [...this.#toolCalls.entries()].map(([server, entry]) => ({
      server,
      ...entry,
      durationMs: Math.round(entry.durationMs),
    }));
  }

  /** The models' estimated cost; `null` when one of them has no price. */
  get estimatedCostUsd(): number | null {
    let total = 0;
    for (const entry of this.#models.values()) {
      if (entry.estimatedCostUsd === null) return null;
      total += entry.estimatedCostUsd;
    }
    return roundUsd(total);
  }
}

/**
 * Where a task keeps its {@link TaskMeter}; a context without one meters nothing.
 *
 * @example
 * ```ts
 * const meter = new TaskMeter();
 * const taskCtx = ctx.with(TASK_METER, meter);
 * // … run the task with taskCtx: the dispatcher's links and the metered model add to it …
 * const { models, serverUsage, estimatedCostUsd } = meter;
 * ```
 */
export const TASK_METER = defineSlot<TaskMeter>('task-meter');

function roundUsd(value: number): number {
  return Math.round(value * 1_000_000) / 1_000_000;
}
