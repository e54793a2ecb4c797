import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError } from '@mcp-agent/core';

/** Maps a bearer token to the user it belongs to; the host decides how. */
export interface TokenVerifier {
  verify(token: string): Promise<string | undefined>;
}

/**
 * Tokens from a JSON file `{"tokens": {"<token>": "<userId>"}}`: the embedded default. Tokens
 * are compared as SHA-256 digests in constant time and never logged.
 */
export class StaticTokenVerifier implements TokenVerifier {
  readonly #digests: { digest: Buffer; userId: string }[];

  constructor(tokens: Readonly<Record<string, string>>) {
    this.#digests = Object.entries(tokens).map(([token, userId]) => {
      // The rule, and whose token breaks it; never the token itself.
      if (token.length < 16)
        throw new ConfigError(
          `The token of user "${String(userId).slice(0, 64)}" is ${token.length} characters; gateway tokens must be at least 16 characters (for example 32 random bytes as hex: openssl rand -hex 32).`,
        );
      return { digest: sha256(token), userId };
    });
  }

  /** Reads a token file; a clear `ConfigError` when it is missing or malformed. */
  static fromFile(path: string): StaticTokenVerifier {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const why =
        code === 'ENOENT'
          ? 'there is no such file'
          : code === 'EACCES'
            ? 'permission denied'
            : error instanceof SyntaxError
              ? `it is not JSON (${error.message})`
              : (error as Error).message;
      throw new ConfigError(
        `Cannot read the token file ${path}: ${why}. It holds {"tokens": {"<token>": "<userId>"}}.`,
      );
    }
    const tokens = (parsed as { tokens?: unknown } | null)?.tokens;
    if (tokens === null || typeof tokens !== 'object' || Array.isArray(tokens)) {
      throw new ConfigError(
        `The token file ${path} must hold {"tokens": {"<token>": "<userId>"}}.`,
      );
    }
    return new StaticTokenVerifier(tokens as Record<string, string>);
  }

  async verify(token: string): Promise<string | undefined> {
    const digest = sha256(token);
    let found: string | undefined;
    for (const entry of this.#digests)
      if (timingSafeEqual(entry.digest, digest)) found = entry.userId;
    return found;
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
