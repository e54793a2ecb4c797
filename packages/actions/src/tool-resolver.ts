import type { ValidateFunction } from 'ajv';
import { ExpiringCache, type AgentContext, type ToolSpec } from '@mcp-agent/core';
import {
  toToolSpec,
  type ConnectionPool,
  type Registry,
  type ServerVerdict,
} from '@mcp-agent/registry';
import type { SchemaValidator } from './schema-validator.js';

/** Whether a tool can be called now: its server's verdict, or that the server lacks it. */
export type ToolVerdict =
  | ServerVerdict
  | { readonly available: false; readonly code: 'tool_unknown'; readonly reason: string };

/** A tool, ready to dispatch to: its spec and compiled validators. */
export interface ResolvedTool {
  readonly spec: ToolSpec;
  readonly contentHash: string;
  readonly validateInput: ValidateFunction | Error;
  readonly validateOutput: ValidateFunction | Error | undefined;
}

interface Entry {
  readonly tool: ResolvedTool | undefined;
  readonly verdict: ToolVerdict;
}

// Verdicts a start of the server may change: never connected, or failed on an earlier attempt.
const STARTABLE: ReadonlySet<string> = new Set(['not_ready', 'failed']);

/** Options of {@link ToolResolver}. */
export interface ToolResolverOptions {
  /** How long a resolved tool is trusted without asking again; default 5 s. */
  readonly ttlMs?: number;
  /** Resolved tools kept at most; default 10,000. */
  readonly maxEntries?: number;
}

/**
 * Resolves (tenant, server, tool) to a dispatchable tool with its compiled validators, from the
 * request's availability and the cached catalog, and caches it: the hot path makes no database
 * query. Entries are dropped when the registry or the pool reports a change for that tenant and
 * server, and expire after `ttlMs` anyway (another process may have changed the database).
 */
export class ToolResolver {
  readonly #cache: ExpiringCache<string, Entry>;

  constructor(
    private readonly registry: Registry,
    private readonly validator: SchemaValidator,
    private readonly pool: Partial<Pick<ConnectionPool, 'on' | 'ready'>> | undefined,
    options: ToolResolverOptions = {},
  ) {
    this.#cache = new ExpiringCache({
      ttlMs: options.ttlMs ?? 5_000,
      maxEntries: options.maxEntries ?? 10_000,
    });
    registry.onServerChange(({ userId, serverId }) => this.forget(userId, serverId));
    pool?.on?.('tools-changed', ({ userId, serverId }) => this.forget(userId, serverId));
  }

  /** Drops the cached tools of one tenant's server. */
  forget(userId: string, serverId: string): void {
    const prefix = `${userId}\u0000${serverId}\u0000`;
    this.#cache.deleteWhere((key) => key.startsWith(prefix));
  }

  /**
   * {@link resolve}, with lazy start: the first call that needs a server not connected yet (or
   * failed before) starts it, waiting by that server's own timeout; the verdict then says how
   * it went (the server and its error).
   */
  async resolveStarting(ctx: AgentContext, serverId: string, toolName: string): Promise<Entry> {
    const entry = await this.resolve(ctx, serverId, toolName);
    const { verdict } = entry;
    if (verdict.available || !STARTABLE.has(verdict.code) || this.pool?.ready === undefined)
      return entry;
    await this.pool.ready(ctx, serverId).catch(() => undefined);
    return this.resolve(ctx, serverId, toolName);
  }

  /**
   * The hot path of {@link resolveStarting}: a tool resolved lately on an available server, at
   * once (a caller that awaits nothing then saves a tick), or `undefined` when it must be asked.
   */
  known(ctx: AgentContext, serverId: string, toolName: string): Entry | undefined {
    const cached = this.#cache.get(cacheKey(ctx, serverId, toolName));
    return cached?.verdict.available === true ? cached : undefined;
  }

  /** The tool and whether it can be called (the tool is absent when it cannot). */
  async resolve(ctx: AgentContext, serverId: string, toolName: string): Promise<Entry> {
    const key = cacheKey(ctx, serverId, toolName);
    const cached = this.#cache.get(key);
    if (cached !== undefined) return cached;
    const verdict = (await this.registry.availability(ctx)).check(serverId);
    if (!verdict.available) return { tool: undefined, verdict };
    const raw = (await this.registry.storedTools(ctx, serverId)).find((t) => t.name === toolName);
    if (raw === undefined) {
      return {
        tool: undefined,
        verdict: {
          available: false,
          code: 'tool_unknown',
          reason: `Server "${serverId}" has no tool "${toolName.slice(0, 128)}".`,
        },
      };
    }
    const spec = toToolSpec(serverId, raw.raw);
    const entry: Entry = {
      tool: {
        spec,
        contentHash: raw.contentHash,
        validateInput: this.#compile(spec.inputSchema),
        validateOutput:
          spec.outputSchema === undefined ? undefined : this.#compile(spec.outputSchema),
      },
      verdict,
    };
    // Only usable tools are cached; a refusal is re-checked on the next call.
    this.#cache.set(key, entry);
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

// What a resolution depends on: the tenant, the tool, the thread's servers and the allow-list.
function cacheKey(ctx: AgentContext, serverId: string, toolName: string): string {
  return [
    ctx.userId,
    serverId,
    toolName,
    ctx.threadId ?? '',
    ctx.allowServers?.join(',') ?? '*',
  ].join('\u0000');
}
