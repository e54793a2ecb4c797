import { systemClock, type Clock } from './clock.js';

/** Options of {@link ExpiringCache}. */
export interface ExpiringCacheOptions {
  /** Most entries kept; the least recently used goes first. */
  readonly maxEntries: number;
  /** An entry older than this is never returned (and is dropped when seen). */
  readonly ttlMs: number;
  /** Default {@link systemClock}; tests pass a clock they move by hand. */
  readonly clock?: Clock;
}

interface Entry<V> {
  readonly value: V;
  readonly expiresAt: number;
}

/**
 * A map with a bound and an expiry, for caches that must never hold things for ever: at most
 * `maxEntries` (least recently used dropped first), each for at most `ttlMs`.
 *
 * @example
 * ```ts
 * const challenges = new ExpiringCache<string, Challenge>({ maxEntries: 10_000, ttlMs: 600_000 });
 * challenges.set(state, challenge);
 * challenges.get(state); // undefined once ten minutes have passed
 * ```
 */
export class ExpiringCache<K, V> {
  readonly #entries = new Map<K, Entry<V>>();
  readonly #maxEntries: number;
  readonly #ttlMs: number;
  readonly #clock: Clock;
  // The key used last, which is the map's last entry: a hit on it (one hot tenant, one hot tool)
  // needs no move, and a move is a delete and an insert that leave a hole the map must compact.
  #newest: K | undefined;

  /** `maxEntries` below 1 is taken as 1. */
  constructor(options: ExpiringCacheOptions) {
    this.#maxEntries = Math.max(1, options.maxEntries);
    this.#ttlMs = options.ttlMs;
    this.#clock = options.clock ?? systemClock;
  }

  /** The live value of `key`, or `undefined`; a hit becomes the most recently used. */
  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#clock.now()) {
      this.delete(key);
      return undefined;
    }
    if (key !== this.#newest) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      this.#newest = key;
    }
    return entry.value;
  }

  /** Stores `value`; drops expired entries and then the least recently used past the bound. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: this.#clock.now() + this.#ttlMs });
    this.#newest = key;
    if (this.#entries.size > this.#maxEntries) this.#sweep();
  }

  /** Drops the entry under `key`, if any. */
  delete(key: K): void {
    this.#entries.delete(key);
    if (key === this.#newest) this.#newest = undefined;
  }

  /** Drops every entry whose key matches. */
  deleteWhere(matches: (key: K) => boolean): void {
    for (const key of [...this.#entries.keys()]) if (matches(key)) this.delete(key);
  }

  /** Drops every entry. */
  clear(): void {
    this.#entries.clear();
    this.#newest = undefined;
  }

  /** Entries held, expired ones not yet swept included. */
  get size(): number {
    return this.#entries.size;
  }

  #sweep(): void {
    const now = this.#clock.now();
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.delete(key);
    for (const key of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) break;
      this.delete(key);
    }
  }
}
