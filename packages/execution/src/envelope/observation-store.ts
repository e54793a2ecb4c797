import { randomUUID } from 'node:crypto';
import type { AgentContext } from '@mcp-agent/core';

/** A page of a stored observation's JSON text. */
export interface ObservationPage {
  readonly observationId: string;
  readonly text: string;
  readonly offset: number;
  readonly totalChars: number;
  readonly nextOffset: number | null;
}

/** Keeps full raw results that the envelope cut, so they can be paged through later. */
export interface ObservationStore {
  /** Stores `raw` for the context's tenant; returns its id. */
  put(ctx: AgentContext, raw: unknown): string;
  /** A page of the stored JSON, or `undefined` for an unknown id (or another tenant's). */
  page(
    ctx: AgentContext,
    observationId: string,
    options?: { offset?: number; limit?: number },
  ): ObservationPage | undefined;
}

/** Options of {@link MemoryObservationStore}. */
export interface MemoryObservationStoreOptions {
  /** Observations kept per tenant (oldest dropped first); default 100. */
  readonly maxPerTenant?: number;
  /** Largest observation kept, in characters of JSON; larger ones are cut; default 10 MB. */
  readonly maxChars?: number;
}

/** An in-memory {@link ObservationStore}, bounded per tenant. */
export class MemoryObservationStore implements ObservationStore {
  readonly #tenants = new Map<string, Map<string, string>>();
  readonly #maxPerTenant: number;
  readonly #maxChars: number;

  constructor(options: MemoryObservationStoreOptions = {}) {
    this.#maxPerTenant = options.maxPerTenant ?? 100;
    this.#maxChars = options.maxChars ?? 10_000_000;
  }

  put(ctx: AgentContext, raw: unknown): string {
    let text: string;
    try {
      text = JSON.stringify(raw) ?? 'null';
    } catch {
      text = '"[unserialisable observation]"';
    }
    if (text.length > this.#maxChars) text = text.slice(0, this.#maxChars);
    const id = `obs_${randomUUID()}`;
    const entries = this.#tenants.get(ctx.userId) ?? new Map<string, string>();
    entries.set(id, text);
    while (entries.size > this.#maxPerTenant) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      entries.delete(oldest);
    }
    this.#tenants.set(ctx.userId, entries);
    return id;
  }

  page(
    ctx: AgentContext,
    observationId: string,
    options: { offset?: number; limit?: number } = {},
  ) {
    const text = this.#tenants.get(ctx.userId)?.get(observationId);
    if (text === undefined) return undefined;
    const offset = Math.max(0, Math.floor(options.offset ?? 0));
    const limit = Math.min(Math.max(1, Math.floor(options.limit ?? 4_000)), 100_000);
    const end = Math.min(text.length, offset + limit);
    return {
      observationId,
      text: text.slice(offset, end),
      offset,
      totalChars: text.length,
      nextOffset: end < text.length ? end : null,
    };
  }
}
