import type { DispatchLink } from '../tool-call.js';

/** Counters of one tool. */
export interface ToolMetrics {
  /** Calls made. */
  calls: number;
  /** Calls that failed or returned a tool error (`isError`); not those their caller cancelled. */
  errors: number;
  /** Their time added up, milliseconds. */
  totalMs: number;
}

/** Per-tool counters, readable for status views and tests. */
export class DispatchMetrics {
  readonly #byTool = new Map<string, ToolMetrics>();

  /** The link that feeds these counters. */
  readonly link: DispatchLink = async (ctx, call, next) => {
    const metrics = this.#byTool.get(call.toolId) ?? { calls: 0, errors: 0, totalMs: 0 };
    this.#byTool.set(call.toolId, metrics);
    const started = performance.now();
    try {
      const result = await next(call);
      if (result.isError === true) metrics.errors += 1;
      return result;
    } catch (error) {
      if (!ctx.signal.aborted) metrics.errors += 1;
      throw error;
    } finally {
      metrics.calls += 1;
      metrics.totalMs += performance.now() - started;
    }
  };

  /** A copy of the counters of `toolId`. */
  get(toolId: string): ToolMetrics | undefined {
    const metrics = this.#byTool.get(toolId);
    return metrics && { ...metrics };
  }
}
