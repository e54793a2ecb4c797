import type { AgentContext, JsonValue } from '@mcp-agent/core';
import { cutToBudget } from './cut-to-budget.js';
import { JsonSizes } from './json-size.js';
import {
  budgetBytes,
  DEFAULT_IMAGE_LIMITS,
  type EnvelopeLimits,
  type ImageLimits,
} from './envelope-limits.js';
import { ImageAttacher, type ObservationImage } from './image-attachments.js';
import { Markers } from './markers.js';
import { containsMedia, describeMedia } from './media.js';
import { toObservationDocument } from './observation-document.js';
import type { ObservationStore } from './observation-store.js';

/** What the model sees of a result. */
export interface Observation {
  /** The result, or its honest cut: valid JSON within the budget. */
  readonly data: JsonValue;
  /** True when anything was cut or withheld (media); every cut carries a `read_result` pointer. */
  readonly truncated: boolean;
  /** Where the whole result is kept, when it was cut and a store kept it. */
  readonly observationId?: string;
  /** UTF-8 bytes of the raw result as JSON (or -1 when it could not be serialised). */
  readonly originalBytes: number;
  /** Images shown to the reader beside `data` (when asked for), in the order of their blocks. */
  readonly images?: readonly ObservationImage[];
}

/** Options of {@link processObservation}. */
export interface ProcessObservationOptions {
  /** Limits of this result; the rest from the defaults. */
  readonly limits?: Partial<EnvelopeLimits>;
  /** Keeps the whole result when anything is cut, so that the markers can point to it. */
  readonly store?: ObservationStore;
  /** What produced the result (a tool id), kept with it. */
  readonly source?: string;
  /**
   * Set when the reader is shown images (a model that reads them, an MCP client): images within
   * these limits (defaults {@link DEFAULT_IMAGE_LIMITS}) come back in `images`, and every media
   * block's description says whether it was shown and, when not, why.
   */
  readonly images?: Partial<ImageLimits>;
}

/**
 * Every result becomes this before a model sees it. Within the budget it is returned unchanged,
 * the same reference. Past it, a result that is JSON text is parsed and the whole is kept in the
 * store, then cut structurally (see `cutToBudget`): array tails, the largest values first,
 * string tails, each cut replaced by a marker with the `read_result` id, path and offset of what
 * it stands for. Images, audio and binary resources are always described (type, MIME type,
 * size, pointer) and kept whole; with `images`, the images within its limits are also returned
 * for the reader to see. The output always parses and fits; cycles, BigInts and
 * `undefined` never throw.
 *
 * @example
 * ```ts
 * const seen = processObservation(ctx, response.data, { store, source: 'github.list_issues' });
 * // seen.truncated: the cut parts are markers naming seen.observationId for read_result
 * ```
 */
export function processObservation(
  ctx: AgentContext,
  raw: unknown,
  options: ProcessObservationOptions = {},
): Observation {
  const budget = budgetBytes(options.limits);
  const sizes = new JsonSizes();
  // A text result is measured as it stands; writing out megabytes of it as JSON would cost more.
  const serialised = typeof raw === 'string' ? undefined : serialise(raw);
  const originalBytes =
    typeof raw === 'string'
      ? sizes.of(raw)
      : serialised === undefined
        ? -1
        : Buffer.byteLength(serialised, 'utf8');
  if (originalBytes >= 0 && originalBytes <= budget && !containsMedia(raw)) {
    return { data: raw as JsonValue, truncated: false, originalBytes };
  }
  const document = toObservationDocument(raw, serialised, {
    parseJsonText: originalBytes < 0 || originalBytes > budget,
  });
  const media = containsMedia(document.value);
  if (!media && sizes.of(document.value) <= budget) {
    // Cycles written out, or JSON text that fits once parsed: nothing was cut.
    return { data: document.value, truncated: false, originalBytes };
  }
  const observationId = options.store?.put(ctx, document.value, {
    source: options.source ?? '',
    ...(document.json === undefined ? {} : { json: document.json }),
  });
  const markers = new Markers(observationId);
  const attacher =
    options.images === undefined
      ? undefined
      : new ImageAttacher({ ...DEFAULT_IMAGE_LIMITS, ...options.images });
  const view = media
    ? describeMedia(document.value, markers, [], attacher && ((b, p) => attacher.annotate(b, p)))
        .value
    : document.value;
  const { value } = cutToBudget(view, budget, {
    sizes,
    ...(observationId === undefined ? {} : { observationId }),
  });
  return {
    data: value,
    truncated: true,
    originalBytes,
    ...(observationId === undefined ? {} : { observationId }),
    ...(attacher === undefined || attacher.images.length === 0 ? {} : { images: attacher.images }),
  };
}

function serialise(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined; // cycles, BigInt, stack overflow on deep nesting
  }
}
