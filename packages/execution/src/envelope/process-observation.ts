import type { AgentContext, JsonValue } from '@mcp-agent/core';
import { DEFAULT_ENVELOPE_LIMITS, type EnvelopeLimits } from './envelope-limits.js';
import type { ObservationStore } from './observation-store.js';
import { describeBlob, truncateString } from './truncate-string.js';

/** What the model sees of a result. */
export interface Observation {
  /** The slim result: valid JSON, within `maxTotalBytes`. */
  readonly data: JsonValue;
  readonly truncated: boolean;
  /** Where the full result is kept, when it was cut and a store was given. */
  readonly observationId?: string;
  /** UTF-8 bytes of the raw result as JSON (or -1 when it could not be serialised). */
  readonly originalBytes: number;
}

/** Options of {@link processObservation}. */
export interface ProcessObservationOptions {
  readonly limits?: Partial<EnvelopeLimits>;
  readonly store?: ObservationStore;
}

const MEDIA_TYPES = new Set(['image', 'audio']);

/**
 * Every result becomes this before a model sees it: within its limits it is returned unchanged
 * (the same reference); otherwise long strings are cut (never inside a surrogate pair), long
 * arrays end in `{truncated: true, total: N}`, objects past the depth limit are summarised,
 * images, audio and base64 blobs become their type and size, resource links stay. Limits
 * tighten until the JSON fits the byte budget, so the output always parses and fits. The raw
 * result goes to the store when anything was cut.
 */
export function processObservation(
  ctx: AgentContext,
  raw: unknown,
  options: ProcessObservationOptions = {},
): Observation {
  const limits = { ...DEFAULT_ENVELOPE_LIMITS, ...options.limits };
  const serialised = serialise(raw);
  const originalBytes = serialised === undefined ? -1 : Buffer.byteLength(serialised, 'utf8');
  if (serialised !== undefined && originalBytes <= limits.maxTotalBytes && fits(raw, limits, 0)) {
    return { data: raw as JsonValue, truncated: false, originalBytes };
  }
  let current = limits;
  let data: JsonValue = null;
  for (let round = 0; round < 12; round++) {
    data = slim(raw, current, 0, new WeakSet());
    if (Buffer.byteLength(JSON.stringify(data), 'utf8') <= limits.maxTotalBytes) break;
    current = {
      ...current,
      maxStringLength: Math.max(20, Math.floor(current.maxStringLength / 2)),
      maxArrayItems: Math.max(1, Math.floor(current.maxArrayItems / 2)),
      maxDepth: round >= 4 ? Math.max(1, current.maxDepth - 1) : current.maxDepth,
    };
    data = null;
  }
  if (data === null || Buffer.byteLength(JSON.stringify(data), 'utf8') > limits.maxTotalBytes) {
    data = preview(serialised ?? '', limits.maxTotalBytes, originalBytes);
  }
  const observationId = options.store?.put(ctx, raw);
  return {
    data,
    truncated: true,
    originalBytes,
    ...(observationId === undefined ? {} : { observationId }),
  };
}

function serialise(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined; // cycles, BigInt
  }
}

// True when `value` is plain JSON already inside every per-value limit.
function fits(value: unknown, limits: EnvelopeLimits, depth: number): boolean {
  if (value === null || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value === 'string')
    return value.length <= limits.maxStringLength && describeBlob(value) === undefined;
  if (typeof value !== 'object') return false;
  if (depth >= limits.maxDepth) return false;
  if (Array.isArray(value)) {
    return (
      value.length <= limits.maxArrayItems && value.every((item) => fits(item, limits, depth + 1))
    );
  }
  const type = (value as { type?: unknown }).type;
  if (typeof type === 'string' && MEDIA_TYPES.has(type)) return false;
  return Object.values(value).every((item) => fits(item, limits, depth + 1));
}

function slim(
  value: unknown,
  limits: EnvelopeLimits,
  depth: number,
  seen: WeakSet<object>,
): JsonValue {
  switch (typeof value) {
    case 'string':
      return describeBlob(value) ?? truncateString(value, limits.maxStringLength);
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'boolean':
      return value;
    case 'bigint':
      return value.toString();
    case 'undefined':
    case 'function':
    case 'symbol':
      return null;
  }
  if (value === null) return null;
  const object = value as object;
  if (seen.has(object)) return '[Circular]';
  seen.add(object);
  try {
    if (Array.isArray(object)) {
      if (depth >= limits.maxDepth) return `[array of ${object.length} items]`;
      const kept = object
        .slice(0, limits.maxArrayItems)
        .map((item) => slim(item, limits, depth + 1, seen));
      if (object.length > limits.maxArrayItems)
        kept.push({ truncated: true, total: object.length });
      return kept;
    }
    const record = object as Record<string, unknown>;
    const media = mediaSummary(record);
    if (media !== undefined) return media;
    const keys = Object.keys(record);
    if (depth >= limits.maxDepth) {
      return `[object with ${keys.length} keys: ${truncateString(keys.join(', '), 80)}]`;
    }
    // Object.fromEntries defines own properties, so a "__proto__" key stays data.
    return Object.fromEntries(keys.map((key) => [key, slim(record[key], limits, depth + 1, seen)]));
  } finally {
    seen.delete(object);
  }
}

// MCP image and audio blocks and embedded binary resources: their kind and size, never the bytes.
function mediaSummary(record: Record<string, unknown>): JsonValue | undefined {
  const type = record.type;
  if (typeof type === 'string' && MEDIA_TYPES.has(type) && typeof record.data === 'string') {
    return {
      type,
      mimeType: String(record.mimeType ?? 'unknown'),
      bytes: Math.floor((record.data.length * 3) / 4),
    };
  }
  const resource = record.resource as Record<string, unknown> | undefined;
  if (
    type === 'resource' &&
    resource !== null &&
    typeof resource === 'object' &&
    typeof resource.blob === 'string'
  ) {
    return {
      type: 'resource',
      resource: {
        uri: String(resource.uri ?? ''),
        mimeType: String(resource.mimeType ?? 'unknown'),
        bytes: Math.floor((resource.blob.length * 3) / 4),
      },
    };
  }
  return undefined;
}

function preview(serialised: string, maxBytes: number, originalBytes: number): JsonValue {
  // The fallback when no shape fits: a cut of the JSON text, sized by bytes to the budget.
  let text = serialised.slice(0, Math.max(0, maxBytes - 120));
  const make = () => ({ truncated: true, originalBytes, preview: text });
  while (text.length > 0 && Buffer.byteLength(JSON.stringify(make()), 'utf8') > maxBytes) {
    text = text.slice(0, Math.floor(text.length * 0.8));
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) text = text.slice(0, -1);
  }
  return make();
}
