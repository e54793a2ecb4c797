import { ToolNotFoundError, type AgentContext, type JsonObject } from '@mcp-agent/core';
import type { Registry } from '@mcp-agent/registry';
import { toToolSpec } from '@mcp-agent/registry';

/** A tool's schemas. */
export interface ToolSchema {
  readonly inputSchema: JsonObject;
  readonly outputSchema: JsonObject | undefined;
  readonly catalogVersion: number;
}

/** Options of {@link SchemaStore}. */
export interface SchemaStoreOptions {
  /** How long an entry is trusted without re-reading; default 5 minutes. */
  readonly ttlMs?: number;
  /** Entries kept at most (oldest dropped first); default 10,000. */
  readonly maxEntries?: number;
}

interface Entry {
  readonly schema: ToolSchema;
  readonly storedAt: number;
}

/**
 * `getToolSchema(ctx, provider, tool)` with a cache keyed by (tenant, provider, tool), a TTL,
 * and invalidation as soon as the provider's catalog version changes (checked on every read,
 * one indexed row).
 */
export class SchemaStore {
  readonly #entries = new Map<string, Entry>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;

  constructor(
    private readonly registry: Registry,
    options: SchemaStoreOptions = {},
  ) {
    this.#ttlMs = options.ttlMs ?? 5 * 60_000;
    this.#maxEntries = options.maxEntries ?? 10_000;
  }

  /** The schemas of `provider.tool` for the tenant; `ToolNotFoundError` when it has none. */
  async getToolSchema(ctx: AgentContext, provider: string, tool: string): Promise<ToolSchema> {
    const key = `${ctx.userId}\u0000${provider}\u0000${tool}`;
    const connection = await this.registry.connections.find(ctx, provider);
    const version = connection?.catalogVersion;
    const cached = this.#entries.get(key);
    if (
      cached !== undefined &&
      cached.schema.catalogVersion === version &&
      ctx.clock.now() - cached.storedAt < this.#ttlMs
    ) {
      return cached.schema;
    }
    this.#entries.delete(key);
    const raw = (await this.registry.catalog.list(ctx, provider)).find((t) => t.name === tool);
    if (raw === undefined || version === undefined) {
      throw new ToolNotFoundError(`No tool "${tool}" on server "${provider}" for this user.`, {
        details: { provider, tool },
      });
    }
    const spec = toToolSpec(provider, raw.raw);
    const schema = {
      inputSchema: spec.inputSchema,
      outputSchema: spec.outputSchema,
      catalogVersion: version,
    };
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, { schema, storedAt: ctx.clock.now() });
    return schema;
  }

  /** Drops every cached entry of a tenant (or all). */
  clear(userId?: string): void {
    if (userId === undefined) this.#entries.clear();
    else
      for (const key of this.#entries.keys())
        if (key.startsWith(`${userId}\u0000`)) this.#entries.delete(key);
  }
}
