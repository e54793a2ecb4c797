import { InvalidArgumentsError } from './errors.js';

/** The longest user id accepted, in characters after normalisation. */
export const MAX_USER_ID_LENGTH = 256;

// Control, invisible format, surrogate and line/paragraph separator characters.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;
// "." or ".." as a whole path segment, between "/" or "\" or at either end.
const DOT_SEGMENT = /(^|[/\\])\.{1,2}([/\\]|$)/;

/**
 * The one rule for a user id, which is the tenant key of every query, the same for a library
 * caller, a static token's user and a JWT's user claim: Unicode NFC, surrounding whitespace
 * trimmed, then at most 256 characters of anything printable (letters of any script, digits,
 * punctuation, inner spaces: `auth0|6f1c…`, `alice@example.com`, `repo:org/app:ref:main`),
 * except control, invisible format and line-separator characters, and `.` or `..` as a path
 * segment (`../bob`), which could only aim at someone else's folder. Case is kept, because ids
 * from identity providers are often case-sensitive and folding them could merge two tenants
 * into one. Anything else is refused, never repaired: a repaired id could be another user's.
 *
 * @throws InvalidArgumentsError (`INVALID_ARGUMENTS`) when `value` is not a string, or is empty,
 *   too long or has a refused character or segment after trimming; `details.reason` says which.
 * @example
 * ```ts
 * normalizeUserId('  alice@example.com '); // 'alice@example.com'
 * normalizeUserId('../bob'); // throws InvalidArgumentsError
 * ```
 */
export function normalizeUserId(value: unknown): string {
  // A session's every request passes the id it was opened with, already normal: the last one
  // accepted is known to be its own normal form, so it is not checked again.
  if (typeof value === 'string' && value === lastNormal) return value;
  if (typeof value !== 'string') {
    throw invalid(`expected a string, got ${value === null ? 'null' : typeof value}`);
  }
  const id = value.normalize('NFC').trim();
  if (id.length === 0) throw invalid('it is empty');
  if (id.length > MAX_USER_ID_LENGTH) {
    throw invalid(`it is ${id.length} characters long (at most ${MAX_USER_ID_LENGTH})`);
  }
  if (INVISIBLE.test(id)) throw invalid('it contains control or invisible format characters');
  if (DOT_SEGMENT.test(id)) throw invalid('it has "." or ".." as a path segment');
  lastNormal = id;
  return id;
}

let lastNormal: string | undefined;

function invalid(reason: string): InvalidArgumentsError {
  return new InvalidArgumentsError(
    `Invalid user id: ${reason}. Pass the stable id of the user (the tenant) from your auth system.`,
    { details: { reason } },
  );
}
