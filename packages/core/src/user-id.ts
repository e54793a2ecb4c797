import { InvalidArgumentsError } from './errors.js';

/** The longest user id accepted, in characters. */
export const MAX_USER_ID_LENGTH = 256;

declare const canonicalUserId: unique symbol;

/**
 * A user id (the tenant key of every query) known to be canonical: made only by
 * {@link parseUserId} or {@link checkUserId}, once at sign-in or at a library entry point
 * (`createContext`, `executeTask`), and carried typed from there (`createCheckedContext` takes
 * it), so no later layer checks or repairs it again.
 */
export type UserId = string & {
  /** The brand: only carried by the type, never present at run time. */
  readonly [canonicalUserId]: true;
};

// Printable ASCII without a space at either end and without a "." or ".." segment: most ids, and
// already in every normal form, so they skip Unicode normalisation (this runs per request).
const PLAIN_ASCII = /^[!-~](?:[ -~]*[!-~])?$/;
// Whitespace at either end, as String.prototype.trim sees it (Unicode spaces, NBSP, U+3000, BOM).
const EDGE_SPACE = /^\s|\s$/u;
// Control, invisible format, surrogate and line/paragraph separator characters.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;
// "." or ".." as a whole path segment, between "/" or "\" or at either end.
const DOT_SEGMENT = /(^|[/\\])\.{1,2}([/\\]|$)/;

/**
 * Why `value` is not a canonical user id, or `undefined` when it is one. The one rule for a user
 * id, the same for a library caller, a static token's user, a token file's entry and a JWT's
 * user claim: a string of 1 to 256 characters, already in Unicode NFC, without whitespace at
 * either end, without control, invisible format or line-separator characters, and without `.`
 * or `..` as a path segment (`../bob`). Anything printable is allowed inside: letters of any
 * script, digits, punctuation, inner spaces (`auth0|6f1c…`, `alice@example.com`,
 * `repo:org/app:ref:main`). Case is kept, because ids from identity providers are
 * case-sensitive (OIDC compares `sub` exactly). Nothing is repaired: a trimmed or normalised id
 * could be another user's (`"alice "` is not `alice`, `"jose\u0301"` is not `"jos\u00e9"`).
 *
 * @example
 * ```ts
 * userIdProblem('alice@example.com'); // undefined
 * userIdProblem('alice '); // 'it has whitespace (U+0020) at its start or end'
 * ```
 */
export function userIdProblem(value: unknown): string | undefined {
  if (typeof value !== 'string')
    return `expected a string, got ${value === null ? 'null' : typeof value}`;
  if (value.length === 0) return 'it is empty';
  if (value.length > MAX_USER_ID_LENGTH) {
    return `it is ${value.length} characters long (at most ${MAX_USER_ID_LENGTH})`;
  }
  if (PLAIN_ASCII.test(value)) {
    return DOT_SEGMENT.test(value) ? 'it has "." or ".." as a path segment' : undefined;
  }
  const edge = EDGE_SPACE.exec(value)?.[0];
  if (edge !== undefined) return `it has whitespace (${codePoint(edge)}) at its start or end`;
  if (INVISIBLE.test(value)) return 'it contains control or invisible format characters';
  if (value.normalize('NFC') !== value) {
    return 'it is not in Unicode normal form C (NFC): the same text written with other code points';
  }
  if (DOT_SEGMENT.test(value)) return 'it has "." or ".." as a path segment';
  return undefined;
}

/** What {@link checkUserId} found: the id, typed, or why it is not one. */
export type UserIdCheck =
  | {
      /** The value is a canonical user id. */
      readonly ok: true;
      /** The value, typed. */
      readonly userId: UserId;
    }
  | {
      /** The value is not a canonical user id. */
      readonly ok: false;
      /** Why, as {@link userIdProblem} says it (for an error or a 401 message). */
      readonly problem: string;
    };

/**
 * `value` as a {@link UserId} when it is canonical, else the reason it is not
 * ({@link userIdProblem}); never repaired. For sign-in, which answers a bad id with its own
 * refusal (a 401 naming the reason) rather than {@link parseUserId}'s error.
 *
 * @example
 * ```ts
 * const check = checkUserId(claims.sub);
 * if (!check.ok) return refuse(`the user id is not valid (${check.problem})`);
 * const userId = check.userId;
 * ```
 */
export function checkUserId(value: unknown): UserIdCheck {
  const problem = userIdProblem(value);
  // The one place a string becomes a UserId: everywhere else the type is carried, not made.
  return problem === undefined ? { ok: true, userId: value as UserId } : { ok: false, problem };
}

/**
 * `value` as a {@link UserId} when it is canonical ({@link userIdProblem}); never repaired.
 *
 * @throws InvalidArgumentsError (`INVALID_ARGUMENTS`) when it is not; `details.reason` says why.
 * @example
 * ```ts
 * const userId = parseUserId('alice@example.com');
 * parseUserId(' alice'); // throws InvalidArgumentsError: whitespace at its start or end
 * ```
 */
export function parseUserId(value: unknown): UserId {
  const check = checkUserId(value);
  if (!check.ok) {
    const reason = check.problem;
    throw new InvalidArgumentsError(
      `Invalid user id: ${reason}. Pass the stable id of the user (the tenant) exactly as your auth system issues it; it is never trimmed or normalised, since the result could be another user's.`,
      { details: { reason } },
    );
  }
  return check.userId;
}

const codePoint = (char: string): string =>
  `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
