import type { AgentContext, JsonText, JsonValue } from '@mcp-agent/core';
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

/**
 * What the envelope makes of a result for a model: the result itself within the budget, else its
 * honest cut. (The meta-tool session's answer around it is the agent's `Observation`.)
 */
export interface ShapedResult {
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
  /** The JSON text of `data` when it is the raw result, unchanged, and its JSON was written. */
  readonly json?: JsonText;
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
   * The raw result's JSON text, when the caller wrote it already (the dispatcher sizes every
   * result): it is not written again, and comes back as `json` when the result is shown whole.
   */
  readonly json?: JsonText;
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
): ShapedResult {
  const budget = budgetBytes(options.limits);
  const sizes = new JsonSizes();
  const known = options.json ?? measure(raw, sizes);
  const originalBytes = known.bytes;
  const serialisable = originalBytes >= 0;
  // Media are looked for once: in the raw result (when it has no cycle to walk round), then only
  // in what parsing its JSON text adds.
  const rawMedia = serialisable && containsMedia(raw);
  if (serialisable && originalBytes <= budget && !rawMedia) {
    return {
      data: raw as JsonValue,
      truncated: false,
      originalBytes,
      // The JSON as it was written (by the caller, or by measure): handed on, never again.
      ...(known.text === undefined ? {} : { json: known as JsonText }),
    };
  }
  const document = toObservationDocument(raw, typeof raw === 'string' ? undefined : known.text, {
    parseJsonText: !serialisable || originalBytes > budget,
  });
  const media = serialisable ? rawMedia || document.parsedMedia : containsMedia(document.value);
  if (!media && sizes.of(document.value) <= budget) {
    // Cycles written out, or JSON text that fits once parsed: nothing was cut.
    return { data: document.value, truncated: false, originalBytes };
  }
  const observationId = options.store?.put(ctx, document.value, {
    source: options.source ?? '',
    media,
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

// The raw result's size, and its JSON when written. A text result is measured as it stands:
// writing out megabytes of it as JSON would cost more. -1 bytes: it does not serialise.
function measure(
  raw: unknown,
  sizes: JsonSizes,
): { readonly text?: string; readonly bytes: number } {
  if (typeof raw === 'string') return { bytes: sizes.of(raw) };
  const text = serialise(raw);
  return text === undefined ? { bytes: -1 } : { text, bytes: Buffer.byteLength(text, 'utf8') };
}

function serialise(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined; // cycles, BigInt, stack overflow on deep nesting
  }
}
