import { clip } from './clip.js';
import { ErrorCode } from './error-codes.js';
import { CancelledError, McpAgentError, TimeoutError } from './errors.js';

const MAX_MESSAGE = 2_000;

/**
 * Turns anything thrown into an {@link McpAgentError}, keeping the original as `cause`.
 * The one place where foreign failures enter our error hierarchy: mcp-agent errors pass
 * through as they are, aborts become {@link CancelledError}, timeouts {@link TimeoutError},
 * and everything else an `INTERNAL` error with a bounded message (2,000 characters). It never
 * throws: a `name` or `message` getter that throws is read as missing, and a proxy whose traps
 * throw is described as a non-error value.
 *
 * @example
 * ```ts
 * try {
 *   await work();
 * } catch (thrown) {
 *   const error = toMcpAgentError(thrown);
 *   return { ok: false, error: error.toJSON() };
 * }
 * ```
 */
export function toMcpAgentError(thrown: unknown): McpAgentError {
  if (McpAgentError.isInstance(thrown)) return thrown;
  const name = readString(thrown, 'name');
  if (name === 'AbortError') return new CancelledError(undefined, { cause: thrown });
  if (name === 'TimeoutError') {
    return new TimeoutError(describe(thrown) || 'The operation timed out.', { cause: thrown });
  }
  const message = describe(thrown) || 'An unknown error occurred.';
  return new McpAgentError(ErrorCode.Internal, message, { cause: thrown });
}

function describe(thrown: unknown): string {
  let text: string;
  if (isError(thrown)) text = readString(thrown, 'message') ?? '';
  else if (typeof thrown === 'string') text = thrown;
  else if (thrown === null || thrown === undefined) text = `${String(thrown)} was thrown`;
  else text = readString(thrown, 'message') ?? `A non-error value was thrown (${typeof thrown}).`;
  return clip(text, MAX_MESSAGE, '… (truncated)');
}

// `instanceof` asks a proxy's getPrototypeOf trap, which may throw.
function isError(value: unknown): value is Error {
  try {
    return value instanceof Error;
  } catch {
    return false;
  }
}

// Reads a property without trusting it: getters may throw, values may not be strings.
function readString(value: unknown, key: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  try {
    const field = (value as Record<string, unknown>)[key];
    return typeof field === 'string' ? field : undefined;
  } catch {
    return undefined;
  }
}
