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
      if (token.length < 16)
        throw new ConfigError('Gateway tokens must be at least 16 characters.');
      return { digest: sha256(token), userId };
    });
  }

  /** Reads a token file; a clear `ConfigError` when it is missing or malformed. */
  static fromFile(path: string): StaticTokenVerifier {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new ConfigError(
        `Cannot read the token file ${path}: ${(error as Error).message}. It holds {"tokens": {"<token>": "<userId>"}}.`,
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
