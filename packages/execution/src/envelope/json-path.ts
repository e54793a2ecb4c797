import { formatPath, InvalidArgumentsError, type JsonValue } from '@mcp-agent/core';

/** One step of a path into a JSON value: an object key or an array index. */
export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][\w$-]*/;

/**
 * The path of a value inside a kept result, as the envelope's markers write it:
 * `entities[3].observations`, with `["any key"]` for keys that are not identifiers; the root is
 * the empty path. Core's `formatPath` writes it; {@link parseJsonPath} reads it back.
 */
export function formatJsonPath(path: readonly PathSegment[]): string {
  return path.length === 0 ? '' : formatPath(path);
}

/**
 * Reads a path written by `formatJsonPath`; `''` and `'(root)'` are the root (a bare `$`
 * is a key, as core writes it).
 *
 * @throws InvalidArgumentsError (`INVALID_ARGUMENTS`) naming the character where the path
 *   stops making sense and the shape expected there; `details.path` is the text given.
 * @example
 * ```ts
 * parseJsonPath('entities[3]["first name"]'); // ['entities', 3, 'first name']
 * ```
 */
export function parseJsonPath(text: string): PathSegment[] {
  const source = text.trim();
  let rest = source;
  if (rest === '(root)') return [];
  const segments: PathSegment[] = [];
  const bad = (why: string) =>
    new InvalidArgumentsError(
      `Invalid path ${JSON.stringify(text)}: ${why} at character ${source.length - rest.length + 1}. Write paths as they appear in read_result markers, e.g. entities[3].observations or ["a key"].`,
      { details: { path: text } },
    );
  let first = true;
  while (rest.length > 0) {
    if (rest[0] === '[') {
      const index = /^\[(\d{1,15})\]/.exec(rest);
      if (index !== null) {
        segments.push(Number(index[1]));
        rest = rest.slice(index[0].length);
      } else if (rest[1] === '"') {
        const end = closingQuote(rest, 1);
        if (end === -1 || rest[end + 1] !== ']') throw bad('an unterminated ["key"]');
        segments.push(JSON.parse(rest.slice(1, end + 1)) as string);
        rest = rest.slice(end + 2);
      } else {
        throw bad('expected [index] or ["key"]');
      }
    } else {
      if (!first) {
        if (rest[0] !== '.') throw bad('expected ".", "[index]" or ["key"]');
        rest = rest.slice(1);
      }
      const name = IDENTIFIER.exec(rest);
      if (name === null) throw bad('expected a key name');
      segments.push(name[0]);
      rest = rest.slice(name[0].length);
    }
    first = false;
  }
  return segments;
}

// The index of the quote that closes the JSON string opening at `start`, or -1.
function closingQuote(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

/**
 * The value at `path` inside `root`; own keys only, so `__proto__` or `constructor` never reach
 * a prototype.
 *
 * @throws InvalidArgumentsError (`INVALID_ARGUMENTS`) at the first missing step, saying what is
 *   there instead (the first 20 keys of the object, the length of the array, a scalar's type).
 */
export function selectJsonPath(root: JsonValue, path: readonly PathSegment[]): JsonValue {
  let value = root;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i] as PathSegment;
    const here = formatPath(path.slice(0, i));
    const missing = (why: string) =>
      new InvalidArgumentsError(`No value at ${formatPath(path.slice(0, i + 1))}: ${why}.`, {
        details: { path: formatJsonPath(path) },
      });
    if (Array.isArray(value)) {
      if (typeof segment !== 'number') {
        throw missing(`${here} is an array of ${value.length} items; use an index like [0]`);
      }
      if (segment >= value.length) throw missing(`${here} has ${value.length} items`);
      value = value[segment] as JsonValue;
    } else if (value !== null && typeof value === 'object') {
      const key = String(segment);
      if (!Object.hasOwn(value, key)) {
        const keys = Object.keys(value);
        const listed = keys.slice(0, 20).join(', ') + (keys.length > 20 ? ', …' : '');
        throw missing(`${here} has no key ${JSON.stringify(key)} (its keys: ${listed})`);
      }
      value = value[key] as JsonValue;
    } else {
      throw missing(`${here} is ${value === null ? 'null' : `a ${typeof value}`}`);
    }
  }
  return value;
}
