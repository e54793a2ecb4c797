import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { silentLogger, toMcpAgentError, type Logger } from '@mcp-agent/core';
import type { TokenVerifier } from './token-verifier.js';
import { tokenDigest } from './token-digest.js';
import { readTokenFile, type TokenFile } from './token-file.js';

/** Options of {@link TokenFileVerifier.open}. */
export interface TokenFileVerifierOptions {
  /** How often the file's size, time and inode are compared, besides `fs.watch`; 1 s. */
  readonly pollMs?: number;
  /** Where reloads and unreadable files are reported; default none. */
  readonly logger?: Logger;
}

/**
 * The static tokens of a token file, re-read when it changes: a token added by `mcp-agent tokens
 * add` works at once, and a revoked one is refused within the poll interval (`fs.watch` usually
 * tells sooner; the poll is there for file systems where it does not). Revoked tokens are
 * announced through `onRevoke`, so the gateway closes their sessions. A file that no longer
 * parses leaves the last good list in force (logged); a file that is gone revokes every token.
 */
export class TokenFileVerifier implements TokenVerifier {
  readonly #path: string;
  readonly #logger: Logger;
  readonly #listeners = new Set<(digests: ReadonlySet<string>) => void>();
  #users: ReadonlyMap<string, string>;
  #signature: string;
  readonly #poll: NodeJS.Timeout;
  #watcher: FSWatcher | undefined;

  private constructor(
    path: string,
    signature: string,
    file: TokenFile,
    options: TokenFileVerifierOptions,
  ) {
    this.#path = path;
    this.#logger = options.logger ?? silentLogger;
    this.#users = usersOf(file);
    this.#signature = signature;
    this.#warnIfPlain(file);
    this.#poll = setInterval(() => this.#check(), options.pollMs ?? 1_000);
    this.#poll.unref();
    try {
      // The directory, not the file: an atomic rewrite replaces the file's inode.
      this.#watcher = watch(dirname(path), { persistent: false }, (_event, name) => {
        if (name === null || name === basename(path)) this.#check();
      });
      this.#watcher.on('error', () => this.#stopWatching());
    } catch {
      this.#watcher = undefined;
    }
  }

  /** Reads the token file now (a `ConfigError` when it is missing or malformed) and watches it. */
  static open(path: string, options: TokenFileVerifierOptions = {}): TokenFileVerifier {
    // The signature is taken before the read, so a change during the read is seen next time.
    const signature = signatureOf(path);
    return new TokenFileVerifier(path, signature, readTokenFile(path), options);
  }

  /** How many tokens are in force. */
  get size(): number {
    return this.#users.size;
  }

  /** The user of a token in force in the file, or `undefined`; never throws. */
  async verify(token: string, digest = tokenDigest(token)): Promise<string | undefined> {
    return this.#users.get(digest);
  }

  onRevoke(listener: (digests: ReadonlySet<string>) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stops watching the file. */
  close(): void {
    clearInterval(this.#poll);
    this.#stopWatching();
  }

  #stopWatching(): void {
    this.#watcher?.close();
    this.#watcher = undefined;
  }

  // Re-reads the file when its size, time or inode changed since the last read.
  #check(): void {
    const signature = signatureOf(this.#path);
    if (signature === this.#signature) return;
    let next: ReadonlyMap<string, string>;
    try {
      const file =
        signature === 'missing' ? { entries: [], plain: false } : readTokenFile(this.#path);
      this.#warnIfPlain(file);
      next = usersOf(file);
    } catch (thrown) {
      // A file caught mid-edit stays unread until it changes again; the last good list holds.
      this.#signature = signature;
      this.#logger.error(
        { file: this.#path, reason: toMcpAgentError(thrown).message },
        'token file not reloaded',
      );
      return;
    }
    this.#signature = signature;
    const revoked = new Set([...this.#users.keys()].filter((digest) => !next.has(digest)));
    const added = [...next.keys()].filter((digest) => !this.#users.has(digest)).length;
    this.#users = next;
    this.#logger.info(
      { file: this.#path, count: next.size, added, revoked: revoked.size },
      'token file reloaded',
    );
    if (revoked.size > 0) for (const listener of this.#listeners) listener(revoked);
  }

  #warnIfPlain(file: TokenFile): void {
    if (file.plain)
      this.#logger.warn(
        { file: this.#path },
        'the token file holds plain tokens; "mcp-agent tokens add" or "revoke" rewrites it with SHA-256 digests',
      );
  }
}

function usersOf(file: TokenFile): ReadonlyMap<string, string> {
  return new Map(file.entries.map((entry) => [entry.sha256, entry.user]));
}

function signatureOf(path: string): string {
  try {
    const stat = statSync(path, { bigint: true });
    return `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
  } catch {
    return 'missing';
  }
}
