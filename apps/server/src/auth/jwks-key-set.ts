import {
  createLocalJWKSet,
  errors,
  type CryptoKey,
  type JSONWebKeySet,
  type JWSHeaderParameters,
} from 'jose';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { NotReadyError, silentLogger, toMcpAgentError, type Logger } from '@mcp-agent/core';

/** Options of {@link JwksKeySet}. */
export interface JwksKeySetOptions {
  readonly url: URL;
  /** Sends the requests (after the address checks of the caller's guarded fetch). */
  readonly fetch: FetchLike;
  /**
   * A token with an unknown `kid` waits for the next JWKS fetch that starts after it arrived;
   * such fetches start at most once per this window, whoever sends unknown ids. Default 5 s.
   */
  readonly refetchWindowMs?: number;
  /** The longest the keys are used before a refresh, whatever the cache headers say; 10 min. */
  readonly maxAgeMs?: number;
  /** The shortest, so that `max-age=0` cannot make every request fetch; 30 s. */
  readonly minAgeMs?: number;
  readonly timeoutMs?: number;
  readonly logger?: Logger;
  readonly now?: () => number;
}

// The largest JWKS read: a key set is a few KB; this bounds what a broken issuer can send.
const MAX_JWKS_BYTES = 1_000_000;
// Keys not refreshed for this many maximum ages (the issuer down all along) are dropped.
const STALE_LIMIT_FACTOR = 6;

type LocalKeys = ReturnType<typeof createLocalJWKSet>;

/**
 * The issuer's signing keys, as a `jose` key resolver. Why not `createRemoteJWKSet`: its
 * cooldown after a fetch is shared by every caller, so one token with a made-up `kid` refused a
 * key rotated in just after it for the whole cooldown, and anyone could restart it. Here the
 * keys are refreshed in the background when the JWKS's `Cache-Control: max-age` (held between
 * `minAgeMs` and `maxAgeMs`) runs out, a request never waiting for it; a token with an unknown
 * `kid` waits (at most one window) for the next fetch that starts after it arrived, and fetches
 * for unknown ids start at most once per window. So made-up ids cost at most one fetch per
 * window, and a real new key is accepted on its first request after it is published.
 */
export class JwksKeySet {
  readonly #options: JwksKeySetOptions;
  readonly #now: () => number;
  readonly #logger: Logger;
  #keys: LocalKeys | undefined;
  #fetchedAt = -Infinity;
  #freshUntil = -Infinity;
  #lastStart = -Infinity;
  #running: { startedAt: number; done: Promise<void> } | undefined;
  #next: Promise<void> | undefined;
  #failure: NotReadyError | undefined;

  constructor(options: JwksKeySetOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#logger = options.logger ?? silentLogger;
  }

  /** The `jose` key resolver: pass it to `jwtVerify`. */
  readonly resolve = async (header: JWSHeaderParameters): Promise<CryptoKey> => {
    const now = this.#now();
    if (this.#keys === undefined || now - this.#fetchedAt > this.#staleLimit()) {
      this.#keys = undefined;
      // No keys and a failure within the window: refused at once (fail closed), not queued.
      const window = this.#options.refetchWindowMs ?? 5_000;
      if (this.#failure !== undefined && now - this.#lastStart < window) throw this.#failure;
      // Requests that arrive while the first fetch runs share it.
      await (this.#running?.done ?? this.#fetchAfter(now));
    } else if (now >= this.#freshUntil && this.#running === undefined) {
      // Stale: refreshed in the background; this request goes on with the keys at hand.
      this.#start().catch(() => undefined);
    }
    const found = await this.#find(header);
    if (found !== undefined) return found;
    // An unknown kid: the fetch under way may have it; else the next one that starts from now.
    if (this.#running !== undefined) {
      await this.#running.done.catch(() => undefined);
      const fetched = await this.#find(header);
      if (fetched !== undefined) return fetched;
    }
    await this.#fetchAfter(now);
    const last = await this.#find(header);
    if (last !== undefined) return last;
    throw new errors.JWKSNoMatchingKey();
  };

  async #find(header: JWSHeaderParameters): Promise<CryptoKey | undefined> {
    if (this.#keys === undefined) {
      throw new NotReadyError(`The issuer's keys at ${this.#options.url.href} cannot be read yet.`);
    }
    try {
      return await this.#keys(header);
    } catch (thrown) {
      if (thrown instanceof errors.JWKSNoMatchingKey) return undefined;
      throw thrown;
    }
  }

  // A fetch that starts at or after `arrived`: the one running when it started late enough,
  // else the next, started one window after the last start (shared by everyone waiting).
  #fetchAfter(arrived: number): Promise<void> {
    if (this.#running !== undefined && this.#running.startedAt >= arrived)
      return this.#running.done;
    if (this.#next !== undefined) return this.#next;
    const window = this.#options.refetchWindowMs ?? 5_000;
    const wait = Math.max(0, this.#lastStart + window - this.#now());
    const next = (async () => {
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      await this.#running?.done.catch(() => undefined);
      this.#next = undefined;
      return this.#start();
    })();
    this.#next = next;
    return next;
  }

  #start(): Promise<void> {
    const startedAt = this.#now();
    this.#lastStart = startedAt;
    const done = this.#fetch().then(
      ({ keys, maxAgeMs }) => {
        this.#keys = keys;
        this.#failure = undefined;
        this.#fetchedAt = startedAt;
        this.#freshUntil = startedAt + maxAgeMs;
      },
      (thrown: unknown) => {
        // Kept keys stay in use (up to the stale limit); the next try waits a window.
        this.#freshUntil = startedAt + (this.#options.refetchWindowMs ?? 5_000);
        const error = toMcpAgentError(thrown);
        this.#logger.warn({ reason: error.message }, "the issuer's keys cannot be fetched");
        this.#failure = NotReadyError.isInstance(thrown)
          ? thrown
          : new NotReadyError(`The issuer's keys cannot be fetched right now (${error.message}).`);
        throw this.#failure;
      },
    );
    const running = { startedAt, done };
    this.#running = running;
    void done
      .finally(() => {
        if (this.#running === running) this.#running = undefined;
      })
      .catch(() => undefined);
    return done;
  }

  async #fetch(): Promise<{ keys: LocalKeys; maxAgeMs: number }> {
    const url = this.#options.url;
    const response = await this.#options.fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(this.#options.timeoutMs ?? 5_000),
    });
    const text = await response.text();
    if (!response.ok)
      throw new NotReadyError(`The issuer's JWKS at ${url.href} answered ${response.status}.`);
    if (text.length > MAX_JWKS_BYTES)
      throw new NotReadyError(`The issuer's JWKS at ${url.href} is over ${MAX_JWKS_BYTES} bytes.`);
    let jwks: JSONWebKeySet;
    try {
      jwks = JSON.parse(text) as JSONWebKeySet;
      return {
        keys: createLocalJWKSet(jwks),
        maxAgeMs: this.#maxAge(response.headers.get('cache-control')),
      };
    } catch {
      throw new NotReadyError(`The issuer's JWKS at ${url.href} is not a JSON Web Key Set.`);
    }
  }

  // How long a fetched JWKS is used: its max-age, held between the floor and the ceiling.
  #maxAge(cacheControl: string | null): number {
    const ceiling = this.#options.maxAgeMs ?? 600_000;
    const floor = Math.min(this.#options.minAgeMs ?? 30_000, ceiling);
    if (cacheControl === null) return ceiling;
    if (/(^|,)\s*(no-store|no-cache)\b/i.test(cacheControl)) return floor;
    const seconds = /(?:^|,)\s*max-age\s*=\s*"?(\d+)/i.exec(cacheControl)?.[1];
    if (seconds === undefined) return ceiling;
    return Math.min(Math.max(Number(seconds) * 1_000, floor), ceiling);
  }

  #staleLimit(): number {
    return STALE_LIMIT_FACTOR * (this.#options.maxAgeMs ?? 600_000);
  }
}
