/** A value that survives `JSON.stringify` / `JSON.parse` unchanged. */
export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object with string keys. */
export type JsonObject = { [key: string]: JsonValue };

/**
 * Whether a parsed JSON value is an object (not an array, not null): what a JSON-RPC message,
 * its params or a tool's arguments must be. A check by hand, for the per-call paths that take
 * the common shape without a schema parse.
 */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Options of {@link toJsonSafe}. */
export interface JsonSafeOptions {
  /** Nesting past this many levels becomes a note; 12 (logs, error details). */
  readonly maxDepth?: number;
}

const DEFAULT_MAX_DEPTH = 12;

/**
 * Copies `value` into plain JSON: cycles become `"[Circular]"`, bigints and non-finite numbers
 * strings, functions, symbols and `undefined` `null` in arrays and dropped from objects (as
 * `JSON.stringify` does), dates ISO strings, errors `{name, message}`, and nesting past
 * `maxDepth` levels is summarised. Every key stays data: a `"__proto__"` key from a server or a
 * stored row is copied as an own property and never sets the copy's prototype. Never throws,
 * because it runs on error paths where a second failure would hide the first.
 */
export function toJsonSafe(value: unknown, options: JsonSafeOptions = {}): JsonValue {
  return copy(value, 0, options.maxDepth ?? DEFAULT_MAX_DEPTH, new WeakSet());
}

/**
 * Sets `key` on `target` as an own, enumerable data property: unlike `target[key] = value`, a
 * `"__proto__"` key stays a key. Every copier of untrusted objects writes through this.
 */
export function defineData(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function copy(value: unknown, depth: number, maxDepth: number, seen: WeakSet<object>): JsonValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
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
  if (depth >= maxDepth) return `[nested deeper than ${maxDepth} levels]`;
  seen.add(object);
  try {
    if (Array.isArray(object)) return object.map((item) => copy(item, depth + 1, maxDepth, seen));
    if (object instanceof Date) return Number.isNaN(object.getTime()) ? null : object.toISOString();
    if (object instanceof Error) return { name: object.name, message: object.message };
    const out: JsonObject = {};
    for (const key of Object.keys(object)) {
      const item = (object as Record<string, unknown>)[key];
      if (typeof item === 'undefined' || typeof item === 'function' || typeof item === 'symbol') {
        continue;
      }
      defineData(out, key, copy(item, depth + 1, maxDepth, seen));
    }
    return out;
  } catch {
    // A throwing getter or proxy trap: keep going with what can be said.
    return '[unreadable]';
  } finally {
    seen.delete(object);
  }
}
