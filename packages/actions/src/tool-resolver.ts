import type { ValidateFunction } from 'ajv';
import type { AgentContext, ToolSpec } from '@mcp-agent/core';
import {
  toToolSpec,
  type Availability,
  type ConnectionPool,
  type Registry,
  RegistryManager,
} from '@mcp-agent/registry';
import type { SchemaValidator } from './schema-validator.js';

/** A tool, ready to dispatch to: its spec, validators and availability. */
export interface ResolvedTool {
  readonly spec: ToolSpec;
  readonly contentHash: string;
  readonly availability: Availability;
  readonly validateInput: ValidateFunction | Error;
  readonly validateOutput: ValidateFunction | Error | undefined;
}

interface Entry {
  readonly tool: ResolvedTool | undefined;
  readonly availability: Availability;
  readonly expiresAt: number;
}

/**
 * Resolves (tenant, provider, tool) to a dispatchable tool with its compiled validators, and
 * caches it: the hot path makes no database query. Entries are dropped when the registry or
 * the pool reports a change for that tenant and server, and expire after `ttlMs` anyway
 * (another process may have changed the database).
 */
export class ToolResolver {
  readonly #manager: RegistryManager;
  readonly #cache = new Map<string, Entry>();

  constructor(
    private readonly registry: Registry,
    private readonly validator: SchemaValidator,
    pool: ConnectionPool | undefined,
    private readonly ttlMs = 5_000,
  ) {
    this.#manager = new RegistryManager(registry);
    const forget = ({
      userId,
      providerId,
      serverId,
    }: {
      userId: string;
      providerId?: string;
      serverId?: string;
    }) => this.forget(userId, providerId ?? serverId ?? '');
    for (const event of [
      'server-registered',
      'server-updated',
      'server-removed',
      'state-changed',
      'catalog-changed',
    ] as const) {
      this.#manager.on(event, forget);
    }
    pool?.on('tools-changed', forget);
  }

  /** Drops the cached tools of one tenant's server. */
  forget(userId: string, providerId: string): void {
    const prefix = `${userId}\u0000${providerId}\u0000`;
    for (const key of this.#cache.keys()) if (key.startsWith(prefix)) this.#cache.delete(key);
  }

  /** The tool and its availability (the tool is absent when the server does not list it). */
  async resolve(ctx: AgentContext, providerId: string, toolName: string): Promise<Entry> {
    const key = `${ctx.userId}\u0000${providerId}\u0000${toolName}\u0000${ctx.threadId ?? ''}`;
    const now = ctx.clock.now();
    const cached = this.#cache.get(key);
    if (cached !== undefined && cached.expiresAt > now) return cached;
    const availability = await this.#manager.checkAvailability(ctx, providerId, toolName);
    let tool: ResolvedTool | undefined;
    if (availability.available) {
      const raw = (await this.registry.catalog.list(ctx, providerId)).find(
        (t) => t.name === toolName,
      );
      if (raw !== undefined) {
        const spec = toToolSpec(providerId, raw.raw);
        tool = {
          spec,
          contentHash: raw.contentHash,
          availability,
          validateInput: this.#compile(spec.inputSchema),
          validateOutput:
            spec.outputSchema === undefined ? undefined : this.#compile(spec.outputSchema),
        };
      }
    }
    const entry = { tool, availability, expiresAt: now + this.ttlMs };
    // Only usable tools are cached; a refusal is re-checked on the next call.
    if (tool !== undefined) this.#cache.set(key, entry);
    return entry;
  }

  #compile(schema: ToolSpec['inputSchema']): ValidateFunction | Error {
    try {
      return this.validator.compile(schema);
    } catch (error) {
      return error as Error;
    }
  }
}
