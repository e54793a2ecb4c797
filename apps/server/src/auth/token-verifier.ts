import { ConfigError } from '@mcp-agent/core';
import { tokenDigest } from './token-digest.js';
import { readTokenFile } from './token-file.js';

/** What a verified bearer token says about its caller. */
export interface VerifiedToken {
  /**
   * The user (tenant) every request with this token acts for, exactly as issued: one that is not
   * already canonical (core's `parseUserId`) is refused at sign-in with 401, never repaired.
   */
  readonly userId: string;
  /** The scopes the token grants (a JWT's `scope` or `scp`); static tokens have none. */
  readonly scopes?: readonly string[];
  /** When the token expires, in seconds since the epoch; static tokens do not. */
  readonly expiresAt?: number;
}

/**
 * Maps a bearer token to the user it belongs to; the host decides how. `verify` answers the user
 * id (or a {@link VerifiedToken}), or `undefined` for a token it does not know. It may instead
 * throw an `UnauthorizedError` whose message says why the token is refused (401), a
 * `PolicyDeniedError` for a valid token without a scope this server requires (403), or a
 * `NotReadyError` when it cannot check tokens right now (503).
 */
export interface TokenVerifier {
  /**
   * The user `token` names, as described above. `digest` is the token's `tokenDigest`, which
   * the server works out once per request and hands on, so that a verifier that looks tokens up
   * by it need not hash the token again; one that does not ignores it.
   */
  verify(token: string, digest?: string): Promise<string | VerifiedToken | undefined>;
  /** Where callers get tokens: named in the protected-resource metadata (RFC 9728). */
  readonly authorizationServers?: readonly string[];
  /** The scopes a token needs here: named in the metadata and in every challenge. */
  readonly requiredScopes?: readonly string[];
  /**
   * Tells the server when tokens stop being valid, by their `tokenDigest`, so that it closes
   * the sessions they opened. Returns the function that stops listening.
   */
  onRevoke?(listener: (digests: ReadonlySet<string>) => void): () => void;
}

/**
 * Tokens held in memory, `{"<token>": "<userId>"}`: for embedding and tests. Only digests are
 * kept; a token is looked up by its digest, so the lookup's timing tells nothing about a stored
 * token (nobody can aim a digest at one). A file that changes while the server runs is
 * `TokenFileVerifier`'s job.
 */
export class StaticTokenVerifier implements TokenVerifier {
  readonly #users: Map<string, string>;

  constructor(tokens: Readonly<Record<string, string>>) {
    this.#users = new Map(
      Object.entries(tokens).map(([token, userId]) => {
        // The rule, and whose token breaks it; never the token itself.
        if (token.length < 16)
          throw new ConfigError(
            `The token of user "${String(userId).slice(0, 64)}" is ${token.length} characters; gateway tokens must be at least 16 characters (for example 32 random bytes as hex: openssl rand -hex 32).`,
          );
        return [tokenDigest(token), userId];
      }),
    );
  }

  /** A snapshot of a token file (either format); a clear `ConfigError` when it is unreadable. */
  static fromFile(path: string): StaticTokenVerifier {
    const verifier = new StaticTokenVerifier({});
    for (const entry of readTokenFile(path).entries) verifier.#users.set(entry.sha256, entry.user);
    return verifier;
  }

  /** The user of a token in the map, or `undefined`; never throws. */
  async verify(token: string, digest = tokenDigest(token)): Promise<string | undefined> {
    return this.#users.get(digest);
  }
}
