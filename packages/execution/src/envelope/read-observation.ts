import { InvalidArgumentsError, type JsonObject, type JsonValue } from '@mcp-agent/core';
import { cutToBudget } from './cut-to-budget.js';
import { budgetBytes, DEFAULT_IMAGE_LIMITS, type ImageLimits } from './envelope-limits.js';
import { ImageAttacher, type ObservationImage } from './image-attachments.js';
import { parseJsonPath, selectJsonPath, type PathSegment } from './json-path.js';
import { Markers } from './markers.js';
import { describeMedia, isMedia } from './media.js';

/** What part of a kept result to read: the arguments of `read_result` besides the id. */
export interface ObservationReadOptions {
  /** Where, as the markers write it (`entities[3].observations`); default the whole result. */
  readonly path?: string;
  /** The first item (array), key (object) or character (string) to show; default 0. */
  readonly offset?: number;
  /** How many items, keys or characters to show at most; default as many as fit. */
  readonly limit?: number;
  /** The budget of the answer; default the envelope's. */
  readonly maxTokens?: number;
  /** Set when the reader is shown images: those read, within these limits, come back too. */
  readonly images?: Partial<ImageLimits>;
}

/**
 * The part of `value` (a kept result) that `options` ask for, cut to the budget with markers
 * that point into the same observation, so that reading on from each marker returns the rest.
 * Media are described, never sent as text (with `images`, images are also returned). Throws `InvalidArgumentsError` for a path that is not
 * there, or an offset or limit that is not a whole number in range.
 */
export function readObservation(
  value: JsonValue,
  observationId: string,
  options: ObservationReadOptions & { readonly media?: boolean } = {},
): { value: JsonValue; truncated: boolean; images?: readonly ObservationImage[] } {
  const path = parseJsonPath(options.path ?? '');
  const target = selectJsonPath(value, path);
  const offset = options.offset ?? 0;
  const limit = options.limit;
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new InvalidArgumentsError(`offset must be a whole number ≥ 0, got ${String(offset)}.`);
  }
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 1)) {
    throw new InvalidArgumentsError(`limit must be a whole number ≥ 1, got ${String(limit)}.`);
  }
  if (offset > 0 || limit !== undefined) {
    const length = lengthOf(target);
    if (length === undefined) {
      throw new InvalidArgumentsError(
        `offset and limit page through strings, arrays and objects; the value at ${options.path || 'the root'} is ${target === null ? 'null' : `a ${typeof target}`}.`,
      );
    }
    if (offset > length) {
      throw new InvalidArgumentsError(
        `offset ${offset} is past the end: the value at ${options.path || 'the root'} has ${length} ${unitOf(target)}.`,
      );
    }
  }
  const markers = new Markers(observationId);
  const attacher =
    options.images === undefined
      ? undefined
      : new ImageAttacher({ ...DEFAULT_IMAGE_LIMITS, ...options.images });
  // A media block read by its own pointer: its description, and its base64 as text, in pages.
  if (options.media !== false && isMedia(target))
    return readMediaBlock(target as JsonObject, path, markers, attacher, options.maxTokens);
  // `media: false` says the kept value has none, which spares a walk through all of it.
  const media =
    options.media === false
      ? { value: target, replaced: false }
      : describeMedia(target, markers, path, attacher && ((b, p) => attacher.annotate(b, p)));
  const cut = cutToBudget(media.value, budgetBytes({ maxTokens: options.maxTokens }), {
    observationId,
    path,
    offset,
    ...(limit === undefined ? {} : { limit }),
    // A string read for itself is shown as text, in pages: base64 too (an image's data).
    blobAsText: true,
  });
  const units = lengthOf(target) ?? 0;
  if (cut.shown === 0 && offset < units) {
    // Only a marker for all of it fits: answering with it would send the reader round in circles.
    throw new InvalidArgumentsError(
      `The value at ${options.path || 'the root'} cannot be shown in ${options.maxTokens ?? 'the default'} tokens: even a pointer into it is longer. Read it with a larger budget.`,
      { details: { path: options.path ?? '', offset } },
    );
  }
  const partial = offset > 0 || (limit !== undefined && limit < units);
  return {
    value: cut.value,
    truncated: cut.cut || media.replaced || partial,
    ...(attacher === undefined || attacher.images.length === 0 ? {} : { images: attacher.images }),
  };
}

function lengthOf(value: JsonValue): number | undefined {
  if (typeof value === 'string' || Array.isArray(value)) return value.length;
  if (value !== null && typeof value === 'object') return Object.keys(value).length;
  return undefined;
}

function unitOf(value: JsonValue): string {
  if (typeof value === 'string') return 'characters';
  return Array.isArray(value) ? 'items' : 'keys';
}

// An image, audio or binary resource read through the pointer of its description: the
// description (no pointer back to itself, which would send the reader round in circles) with
// the base64 itself as its `data` (a resource's `blob`), one page of it with a marker to the
// next, so that following the markers reads every byte.
function readMediaBlock(
  block: JsonObject,
  path: readonly PathSegment[],
  markers: Markers,
  attacher: ImageAttacher | undefined,
  maxTokens: number | undefined,
): { value: JsonValue; truncated: boolean; images?: readonly ObservationImage[] } {
  const resource = block.type === 'resource';
  const field: PathSegment[] = resource ? ['resource', 'blob'] : ['data'];
  const annotate =
    attacher && ((b: JsonObject, p: readonly PathSegment[]) => attacher.annotate(b, p));
  const { read_result: _pointer, ...described } = (
    resource
      ? (describeMedia(block, markers, path, annotate).value as JsonObject).resource
      : describeMedia(block, markers, path, annotate).value
  ) as JsonObject;
  const data = String(selectJsonPath(block, field));
  const room = budgetBytes({ maxTokens }) - Buffer.byteLength(JSON.stringify(described)) - 200;
  const page = cutToBudget(data, Math.max(room, 1_024), {
    ...(markers.observationId === undefined ? {} : { observationId: markers.observationId }),
    path: [...path, ...field],
    blobAsText: true,
  });
  const value: JsonObject = resource
    ? { type: 'resource', resource: { ...described, blob: page.value } }
    : { ...described, data: page.value };
  return {
    value,
    truncated: page.cut,
    ...(attacher === undefined || attacher.images.length === 0 ? {} : { images: attacher.images }),
  };
}
