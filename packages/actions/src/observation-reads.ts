import type { ActionResponse, AgentContext, ToolId } from '@mcp-agent/core';
import {
  DEFAULT_ENVELOPE_LIMITS,
  parseJsonPath,
  selectJsonPath,
  type EnvelopeLimits,
  type ImageLimits,
  type ObservationReadOptions,
  type ObservationStore,
} from '@mcp-agent/execution';
import { checkObservationId, elapsed, failedRead, notKept } from './dispatch-errors.js';

// Reading back what a call kept is its own concept beside dispatching one: it reaches no server
// and runs no middleware, only the tenant's kept observations and the operator's budget.

/** What `readResult` reads: the arguments of the `read_result` meta-tool besides the id. */
export type ReadResultOptions = Omit<ObservationReadOptions, 'images'> & {
  /** The reader sees images: those read, within the image limits, come back in `images`. */
  readonly images?: boolean;
};

/** The operator's limits a read is held to: the envelope budget and what images may show. */
export interface ReadLimits {
  readonly envelope?: Partial<EnvelopeLimits>;
  readonly images?: Partial<ImageLimits>;
}

/** `Dispatcher.readResult`: a kept result, or a page of it, cut to the budget. Never throws. */
export function readKeptResult(
  store: ObservationStore,
  limits: ReadLimits,
  ctx: AgentContext,
  observationId: string,
  options: ReadResultOptions,
): ActionResponse {
  const started = performance.now();
  try {
    const id = checkObservationId(observationId);
    // The operator's budget is a ceiling: a reader may ask for smaller pages, never larger.
    const ceiling = limits.envelope?.maxTokens ?? DEFAULT_ENVELOPE_LIMITS.maxTokens;
    const { images, ...where } = options;
    const read = store.read(ctx, id, {
      ...where,
      maxTokens: Math.min(options.maxTokens ?? ceiling, ceiling),
      ...(images === true ? { images: limits.images ?? {} } : {}),
    });
    if (read === undefined) throw notKept(id);
    return {
      ok: true,
      data: read.value,
      ...(read.images === undefined ? {} : { images: read.images }),
      meta: {
        toolId: read.source as ToolId,
        durationMs: elapsed(started),
        truncated: read.truncated,
        observationId: id,
      },
    };
  } catch (thrown) {
    return failedRead(thrown, observationId, started);
  }
}

/** `Dispatcher.wholeResult`: the whole kept value at `path`, uncut. Never throws. */
export function wholeKeptResult(
  store: ObservationStore,
  ctx: AgentContext,
  observationId: string,
  options: { readonly path?: string },
): ActionResponse {
  const started = performance.now();
  try {
    const id = checkObservationId(observationId);
    const kept = store.get(ctx, id);
    if (kept === undefined) throw notKept(id);
    const value = selectJsonPath(kept.value, parseJsonPath(options.path ?? ''));
    return {
      ok: true,
      data: value,
      meta: {
        toolId: kept.source as ToolId,
        durationMs: elapsed(started),
        truncated: false,
        observationId: id,
      },
    };
  } catch (thrown) {
    return failedRead(thrown, observationId, started);
  }
}
