/** A value that survives `JSON.stringify` / `JSON.parse` unchanged. */
export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object with string keys. */
export type JsonObject = { [key: string]: JsonValue };

const MAX_DEPTH = 12;

/**
 * Copies `value` into plain JSON: cycles become `"[Circular]"`, bigints strings, functions,
 * symbols and `undefined` are dropped, and nesting past 12 levels is summarised. Never throws,
 * because it runs on error paths where a second failure would hide the first.
 */
export function toJsonSafe(value: unknown): JsonValue {
  return copy(value, 0, new WeakSet());
}

function copy(value: unknown, depth: number, seen: WeakSet<object>): JsonValue {
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
  if (depth >= MAX_DEPTH) return '[Nested too deep]';
  seen.add(object);
  try {
    if (Array.isArray(object)) return object.map((item) => copy(item, depth + 1, seen));
    if (object instanceof Date) return Number.isNaN(object.getTime()) ? null : object.toISOString();
    if (object instanceof Error) return { name: object.name, message: object.message };
    const out: JsonObject = {};
    for (const [key, item] of Object.entries(object)) {
      if (typeof item === 'undefined' || typeof item === 'function' || typeof item === 'symbol') {
        continue;
      }
      out[key] = copy(item, depth + 1, seen);
    }
    return out;
  } catch {
    // A throwing getter or proxy trap: keep going with what can be said.
    return '[Unreadable]';
  } finally {
    seen.delete(object);
  }
}
