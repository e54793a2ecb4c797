import { randomBytes } from 'node:crypto';
import { systemClock, type AgentContext, type Clock, type JsonValue } from '@mcp-agent/core';
import type { ObservationImage } from './image-attachments.js';
import { containsMedia } from './media.js';
import { readObservation, type ObservationReadOptions } from './read-observation.js';

/** A whole result as it was kept. */
export interface KeptObservation {
  /** Its id, as markers name it. */
  readonly observationId: string;
  /** The whole result: JSON text parsed, media with their data. */
  readonly value: JsonValue;
  /** What produced it (a tool id). */
  readonly source: string;
  /** UTF-8 bytes of its JSON. */
  readonly bytes: number;
  /** When it expires, in the store's clock. */
  readonly expiresAt: number;
}

/** What is kept beside a result. */
export interface KeepInfo {
  /** What produced it (a tool id). */
  readonly source: string;
  /** The exact JSON text of the value, when the caller has it: saves writing it again. */
  readonly json?: string;
  /** Whether the value holds media, when the caller looked: saves looking again on each read. */
  readonly media?: boolean;
}

/** A part of a kept result, cut to the reader's budget. */
export interface ObservationRead {
  /** The kept result's id. */
  readonly observationId: string;
  /** What produced it (a tool id). */
  readonly source: string;
  /** The value at the path (or the page of it), cut honestly when still too large. */
  readonly value: JsonValue;
  /** True when `value` is not the whole of what was asked: its markers say where the rest is. */
  readonly truncated: boolean;
  /** Images within the reader's limits, when `options.images` asked for them. */
  readonly images?: readonly ObservationImage[];
}

/** Keeps whole results by id, per tenant, so that a cut can be read later. */
export interface ObservationStore {
  /**
   * Keeps `value` for the context's tenant and returns its id, or `undefined` when it is larger
   * than the store keeps. `info.json`, when given, is the exact JSON text of `value`.
   */
  put(ctx: AgentContext, value: JsonValue, info: KeepInfo): string | undefined;
  /** The whole kept result, or `undefined` for an unknown, expired or other tenant's id. */
  get(ctx: AgentContext, observationId: string): KeptObservation | undefined;
  /**
   * The value at `path` (or a page of it from `offset`, `limit` items, keys or characters), cut
   * to `maxTokens` with further pointers; `undefined` for an unknown, expired or other tenant's
   * id, so another tenant's id is indistinguishable from one that never existed.
   *
   * @throws InvalidArgumentsError (`INVALID_ARGUMENTS`) for a path that does not parse or is not
   *   there (the message lists what is there instead), an offset or limit that is not a whole
   *   number in range, or a value that cannot be shown in `maxTokens` at all.
   * @example
   * ```ts
   * // A cut observation's marker said: read_result("obs_1", "entities[3]", offset 20)
   * const page = store.read(ctx, 'obs_1', { path: 'entities[3]', offset: 20, maxTokens: 2_000 });
   * if (page === undefined) return 'That result has expired; call the tool again.';
   * ```
   */
  read(
    ctx: AgentContext,
    observationId: string,
    options?: ObservationReadOptions,
  ): ObservationRead | undefined;
}

/** Options of {@link MemoryObservationStore}; every bound has a default. */
export interface MemoryObservationStoreOptions {
  /** Results kept per tenant (oldest dropped first); default 100. */
  readonly maxPerTenant?: number;
  /** UTF-8 bytes of JSON kept per tenant (oldest dropped first); default 50 MB. */
  readonly maxBytesPerTenant?: number;
  /** UTF-8 bytes of JSON kept in all (oldest dropped first, whoever's); default 256 MB. */
  readonly maxBytes?: number;
  /** The largest result kept; larger ones are not kept; default 10 MB. */
  readonly maxEntryBytes?: number;
  /** How long a result is kept; default 30 minutes. */
  readonly ttlMs?: number;
  /** The time expiry is measured in; default the system's. */
  readonly clock?: Clock;
}

interface Entry {
  readonly tenant: string;
  readonly text: string;
  readonly source: string;
  readonly bytes: number;
  readonly expiresAt: number;
  readonly media: boolean | undefined;
}

interface Tenant {
  readonly ids: Set<string>; // in the order they were kept
  bytes: number;
}

/**
 * An in-memory {@link ObservationStore}. Results are kept as JSON text (compact, measured
 * exactly, never shared with the caller) and parsed when read. Bounded per tenant and in all,
 * with an expiry: expired entries are dropped whenever the store is used, and by a timer that
 * runs (unref'd) only while something is kept, so a server that falls quiet gives them back.
 */
export class MemoryObservationStore implements ObservationStore {
  readonly #entries = new Map<string, Entry>(); // in the order they were kept
  readonly #tenants = new Map<string, Tenant>();
  readonly #maxPerTenant: number;
  readonly #maxBytesPerTenant: number;
  readonly #maxBytes: number;
  readonly #maxEntryBytes: number;
  readonly #ttlMs: number;
  readonly #clock: Clock;
  #bytes = 0;
  #sweeper: NodeJS.Timeout | undefined;
  // The last result read, parsed: a reader pages through one result at a time. Never handed out.
  #lastRead:
    { readonly id: string; readonly value: JsonValue; readonly media: boolean } | undefined;

  constructor(options: MemoryObservationStoreOptions = {}) {
    this.#maxPerTenant = Math.max(1, options.maxPerTenant ?? 100);
    this.#maxBytesPerTenant = options.maxBytesPerTenant ?? 50_000_000;
    this.#maxBytes = options.maxBytes ?? 256_000_000;
    this.#maxEntryBytes = Math.min(
      options.maxEntryBytes ?? 10_000_000,
      this.#maxBytesPerTenant,
      this.#maxBytes,
    );
    this.#ttlMs = options.ttlMs ?? 30 * 60_000;
    this.#clock = options.clock ?? systemClock;
  }

  put(ctx: AgentContext, value: JsonValue, info: KeepInfo): string | undefined {
    this.#expire();
    let text: string;
    try {
      text = info.json ?? JSON.stringify(value) ?? 'null';
    } catch {
      return undefined;
    }
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > this.#maxEntryBytes) return undefined;
    const observationId = `obs_${randomBytes(9).toString('base64url')}`;
    const tenant = this.#tenants.get(ctx.userId) ?? { ids: new Set<string>(), bytes: 0 };
    this.#tenants.set(ctx.userId, tenant);
    const entry = {
      tenant: ctx.userId,
      text,
      source: info.source,
      bytes,
      expiresAt: this.#clock.now() + this.#ttlMs,
      media: info.media,
    };
    this.#entries.set(observationId, entry);
    this.#sweepWhileKept();
    tenant.ids.add(observationId);
    tenant.bytes += bytes;
    this.#bytes += bytes;
    while (tenant.ids.size > this.#maxPerTenant || tenant.bytes > this.#maxBytesPerTenant) {
      this.#delete(tenant.ids.values().next().value as string);
    }
    while (this.#bytes > this.#maxBytes) {
      this.#delete(this.#entries.keys().next().value as string);
    }
    return observationId;
  }

  get(ctx: AgentContext, observationId: string): KeptObservation | undefined {
    this.#expire();
    const entry = this.#entries.get(observationId);
    if (entry === undefined || entry.tenant !== ctx.userId) return undefined;
    return {
      observationId,
      value: JSON.parse(entry.text) as JsonValue,
      source: entry.source,
      bytes: entry.bytes,
      expiresAt: entry.expiresAt,
    };
  }

  read(
    ctx: AgentContext,
    observationId: string,
    options: ObservationReadOptions = {},
  ): ObservationRead | undefined {
    this.#expire();
    const entry = this.#entries.get(observationId);
    if (entry === undefined || entry.tenant !== ctx.userId) return undefined;
    if (this.#lastRead?.id !== observationId) {
      const value = JSON.parse(entry.text) as JsonValue;
      this.#lastRead = { id: observationId, value, media: entry.media ?? containsMedia(value) };
    }
    return {
      observationId,
      source: entry.source,
      ...readObservation(this.#lastRead.value, observationId, {
        ...options,
        media: this.#lastRead.media,
      }),
    };
  }

  /** What is held now: for tests and metrics. */
  stats(): {
    /** Tenants with a result kept. */
    tenants: number;
    /** Results kept. */
    observations: number;
    /** Their size, UTF-8 bytes of JSON. */
    bytes: number;
  } {
    this.#expire();
    return { tenants: this.#tenants.size, observations: this.#entries.size, bytes: this.#bytes };
  }

  // Every minute (or ttl, if shorter) while anything is kept; stops once nothing is.
  #sweepWhileKept(): void {
    if (this.#sweeper !== undefined) return;
    this.#sweeper = setInterval(
      () => {
        this.#expire();
        if (this.#entries.size > 0) return;
        clearInterval(this.#sweeper);
        this.#sweeper = undefined;
      },
      Math.max(1_000, Math.min(this.#ttlMs, 60_000)),
    );
    this.#sweeper.unref();
  }

  // Entries expire in the order they were kept, so the oldest are at the front.
  #expire(): void {
    const now = this.#clock.now();
    for (const [id, entry] of this.#entries) {
      if (entry.expiresAt > now) break;
      this.#delete(id);
    }
  }

  #delete(observationId: string): void {
    const entry = this.#entries.get(observationId);
    if (entry === undefined) return;
    this.#entries.delete(observationId);
    this.#bytes -= entry.bytes;
    if (this.#lastRead?.id === observationId) this.#lastRead = undefined;
    const tenant = this.#tenants.get(entry.tenant);
    if (tenant === undefined) return;
    tenant.ids.delete(observationId);
    tenant.bytes -= entry.bytes;
    if (tenant.ids.size === 0) this.#tenants.delete(entry.tenant);
  }
}
