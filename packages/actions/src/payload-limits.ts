import {
  BudgetExceededError,
  InvalidArgumentsError,
  type ActionResponse,
  type JsonText,
  type ToolId,
} from '@mcp-agent/core';

const MAX_DEPTH = 64;

/** The default of the operator's cap on one call's result (`DispatcherOptions.maxResultBytes`). */
export const DEFAULT_MAX_RESULT_BYTES = 10_000_000;

/**
 * One call may bring at most `max` bytes (default 10 MB) of JSON into the process, the store and
 * the sandbox: past it, a `BudgetExceededError` says how to ask for less. The result's JSON, the
 * one time it is written, comes back for the hops after (the envelope, the session, the
 * gateway); `undefined` for what does not serialise, which the envelope writes out safely.
 */
export function checkResultSize(
  toolId: ToolId,
  data: unknown,
  max = DEFAULT_MAX_RESULT_BYTES,
): JsonText | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(data);
  } catch {
    return undefined; // MCP results are parsed JSON; anything else the envelope writes out safely
  }
  if (text === undefined) return undefined; // `undefined`, a function: nothing to write
  const size = Buffer.byteLength(text, 'utf8');
  if (size <= max) return { text, bytes: size };
  throw new BudgetExceededError(
    `${toolId} returned ${size} bytes of JSON; one call may return at most ${max} bytes. Ask the tool for less (a narrower query, a page or a range), or raise the operator's cap (DispatcherOptions.maxResultBytes).`,
    { details: { toolId, limit: 'maxResultBytes', bytes: size, maxBytes: max } },
  );
}

/**
 * `response` with the JSON of its data carried beside it (`ActionResponse.json`): not
 * enumerable, so that a response written out or spread (the CLI's `--json`) does not repeat its
 * data as text.
 */
export function carryJson<T extends ActionResponse>(response: T, json: JsonText | undefined): T {
  if (json !== undefined) Object.defineProperty(response, 'json', { value: json });
  return response;
}

/**
 * Tool arguments as a plain JSON object of at most `max` bytes (default 1 MB) and 64 levels,
 * checked before schema validation; an `InvalidArgumentsError` says what is wrong.
 */
export function checkArguments(payload: unknown, max = 1_000_000): Record<string, unknown> {
  const value = payload ?? {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidArgumentsError(
      `Tool arguments must be a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}.`,
    );
  }
  if (nestsDeeper(value, MAX_DEPTH)) {
    throw new InvalidArgumentsError(`Tool arguments nest deeper than ${MAX_DEPTH} levels.`);
  }
  let size: number;
  try {
    size = Buffer.byteLength(JSON.stringify(value), 'utf8');
  } catch {
    throw new InvalidArgumentsError(
      'Tool arguments are not serialisable JSON (a cycle or a BigInt).',
    );
  }
  if (size > max)
    throw new InvalidArgumentsError(
      `Tool arguments are ${size} bytes as JSON; at most ${max} are accepted.`,
    );
  return value as Record<string, unknown>;
}

// Whether `value` nests deeper than `left` more levels (a plain object or array is one level).
// Recursive, and so bounded by MAX_DEPTH frames: it stops as soon as the bound is passed, and
// allocates nothing for the arguments of an ordinary call.
function nestsDeeper(value: unknown, left: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (left === 0) return true;
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) if (nestsDeeper(item, left - 1)) return true;
    return false;
  }
  for (const key in value)
    if (Object.hasOwn(value, key) && nestsDeeper((value as Record<string, unknown>)[key], left - 1))
      return true;
  return false;
}
