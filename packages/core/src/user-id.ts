import { InvalidArgumentsError } from './errors.js';

/** The longest user id accepted, in characters after normalisation. */
export const MAX_USER_ID_LENGTH = 256;

const CONTROL = /[\p{Cc}\p{Cf}]/u;

/**
 * Normalises a user id, which is the tenant key of every query: Unicode NFC, surrounding
 * whitespace trimmed, and nothing else. Case is kept, because ids from identity providers are
 * often case-sensitive and folding them could merge two tenants into one. Empty ids, ids over
 * 256 characters and ids with control or invisible format characters are rejected.
 */
export function normalizeUserId(value: unknown): string {
  if (typeof value !== 'string') {
    throw invalid(`expected a string, got ${value === null ? 'null' : typeof value}`);
  }
  const id = value.normalize('NFC').trim();
  if (id.length === 0) throw invalid('it is empty');
  if (id.length > MAX_USER_ID_LENGTH) {
    throw invalid(`it is ${id.length} characters long (at most ${MAX_USER_ID_LENGTH})`);
  }
  if (CONTROL.test(id)) throw invalid('it contains control or invisible format characters');
  return id;
}

function invalid(reason: string): InvalidArgumentsError {
  return new InvalidArgumentsError(
    `Invalid user id: ${reason}. Pass the stable id of the user (the tenant) from your auth system.`,
    { details: { reason } },
  );
}
