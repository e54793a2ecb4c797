import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  checkUserId,
  ConfigError,
  InvalidArgumentsError,
  ServerNotFoundError,
  type UserId,
  type UserIdCheck,
} from '@mcp-agent/core';
import { tokenDigest } from './token-digest.js';

/** One token of a token file: who it belongs to and its SHA-256, never the token itself. */
export interface TokenEntry {
  /** Names the token in `mcp-agent tokens list` and `revoke`: `tok_` and 12 hex of its digest. */
  readonly id: string;
  /** The user the token signs in as: canonical (core's user-id rule), checked when read. */
  readonly user: UserId;
  /** The token's SHA-256 as hex ({@link tokenDigest}). */
  readonly sha256: string;
  /** When it was added (ISO 8601); absent for tokens carried over from the plain format. */
  readonly created?: string;
}

/** A token file as read: its entries, and whether it is still in the plain format. */
export interface TokenFile {
  /** The tokens in force, by digest. */
  readonly entries: readonly TokenEntry[];
  /** The old `{"tokens": {"<token>": "<user>"}}`: plain tokens on disk; rewrite it with digests. */
  readonly plain: boolean;
}

const FORMAT =
  '{"version": 2, "tokens": [{"id", "user", "sha256", "created"}]} (written by "mcp-agent tokens add"), or the older {"tokens": {"<token>": "<user>"}}';

/** The id of a token, from its digest: stable, and no help in guessing the token. */
export function tokenId(sha256: string): string {
  return `tok_${sha256.slice(0, 12)}`;
}

/** Parses a token file's text; a `ConfigError` naming the file and the format when it is wrong. */
export function parseTokenFile(text: string, path: string): TokenFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      `The token file ${path} is not JSON (${(error as Error).message}). It holds ${FORMAT}.`,
    );
  }
  const tokens = (parsed as { tokens?: unknown } | null)?.tokens;
  if (Array.isArray(tokens))
    return { entries: checked(tokens.map(entryOf(path)), path), plain: false };
  if (tokens !== null && typeof tokens === 'object') {
    const entries = Object.entries(tokens as Record<string, unknown>).map(([token, user]) => {
      // The rule, and whose token breaks it; never the token itself.
      if (token.length < 16)
        throw new ConfigError(
          `The token of user "${String(user).slice(0, 64)}" is ${token.length} characters; gateway tokens must be at least 16 characters (for example 32 random bytes as hex: openssl rand -hex 32).`,
        );
      const sha256 = tokenDigest(token);
      const id = tokenId(sha256);
      return { id, user: userOf(user, path, id), sha256 };
    });
    return { entries: checked(entries, path), plain: true };
  }
  throw new ConfigError(`The token file ${path} must hold ${FORMAT}.`);
}

/** Reads a token file; a `ConfigError` when it is missing or malformed. */
export function readTokenFile(path: string): TokenFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const why =
      code === 'ENOENT'
        ? 'there is no such file'
        : code === 'EACCES'
          ? 'permission denied'
          : (error as Error).message;
    throw new ConfigError(
      `Cannot read the token file ${path}: ${why}. Create it with "mcp-agent tokens add <user> --tokens ${path}".`,
    );
  }
  return parseTokenFile(text, path);
}

/**
 * Writes the entries as a digest file, readable by its owner only. The new file is renamed over
 * the old one, so a server re-reading it sees the old list or the new one, never half of one.
 */
export function writeTokenFile(path: string, entries: readonly TokenEntry[]): void {
  const temporary = join(dirname(path), `.tokens-${randomBytes(6).toString('hex')}.tmp`);
  writeFileSync(temporary, `${JSON.stringify({ version: 2, tokens: entries }, null, 2)}\n`, {
    mode: 0o600,
  });
  renameSync(temporary, path);
}

/**
 * Adds a new token for `user` (creating the file if needed; a plain file is rewritten with
 * digests) and returns it: the only time it is ever shown.
 */
export function addToken(
  path: string,
  user: string,
): {
  /** The new token itself: shown once, never stored. */
  token: string;
  /** What the file keeps of it. */
  entry: TokenEntry;
} {
  const check = checkUserName(user);
  if (!check.ok)
    throw new InvalidArgumentsError(
      `The user ${JSON.stringify(String(user).slice(0, 300))} is not a valid user id: ${check.problem}. Give it exactly as your users sign in elsewhere (${USER_RULE}).`,
      { details: { reason: check.problem } },
    );
  const current = existsSync(path) ? readTokenFile(path).entries : [];
  const token = `mat_${randomBytes(32).toString('base64url')}`;
  const sha256 = tokenDigest(token);
  const entry: TokenEntry = {
    id: tokenId(sha256),
    user: check.userId,
    sha256,
    created: new Date().toISOString(),
  };
  writeTokenFile(path, [...current, entry]);
  return { token, entry };
}

/** Removes the token with this id (a plain file is rewritten with digests); returns it. */
export function revokeToken(path: string, id: string): TokenEntry {
  const current = readTokenFile(path).entries;
  const revoked = current.find((entry) => entry.id === id);
  if (revoked === undefined)
    throw new ServerNotFoundError(
      `No token "${id}" in ${path}; "mcp-agent tokens list" shows the ids.`,
    );
  writeTokenFile(
    path,
    current.filter((entry) => entry !== revoked),
  );
  return revoked;
}

function entryOf(path: string) {
  return (raw: unknown): TokenEntry => {
    const entry = (raw ?? {}) as Record<string, unknown>;
    const sha256 = entry.sha256;
    if (typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(sha256))
      throw new ConfigError(
        `The token file ${path} has an entry without a valid "sha256" (64 lowercase hex). It holds ${FORMAT}.`,
      );
    const id = typeof entry.id === 'string' && entry.id !== '' ? entry.id : tokenId(sha256);
    return {
      id,
      user: userOf(entry.user, path, id),
      sha256,
      ...(typeof entry.created === 'string' ? { created: entry.created } : {}),
    };
  };
}

const USER_RULE =
  '1 to 256 characters, already in Unicode NFC, without spaces, control characters or "." / ".." path segments';

// A user that is not already canonical is refused with the whole file, never trimmed or
// normalised: the repaired id could be another user's (AUTH-22).
function userOf(user: unknown, path: string, id: string): UserId {
  const check = checkUserName(user);
  if (!check.ok)
    throw new ConfigError(
      `The token file ${path} has an entry (${id}) whose user ${JSON.stringify(typeof user === 'string' ? user.slice(0, 300) : user)} is not a valid user id: ${check.problem}. Edit that entry in the file: write the user exactly as the user signs in (${USER_RULE}), or remove the entry.`,
    );
  return check.userId;
}

// Core's one user-id rule, and no spaces at all (`tokens list` prints a user as one word).
function checkUserName(user: unknown): UserIdCheck {
  const check = checkUserId(user);
  return check.ok && /\s/.test(check.userId)
    ? { ok: false, problem: 'it contains whitespace' }
    : check;
}

function checked(entries: TokenEntry[], path: string): TokenEntry[] {
  const ids = new Set<string>();
  const digests = new Set<string>();
  for (const entry of entries) {
    if (ids.has(entry.id) || digests.has(entry.sha256))
      throw new ConfigError(`The token file ${path} lists the token ${entry.id} twice.`);
    ids.add(entry.id);
    digests.add(entry.sha256);
  }
  return entries;
}
