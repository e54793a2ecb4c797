import { EventEmitter } from 'node:events';
import {
  canonicalHash,
  parseServerConfig,
  type AgentContext,
  type ServerConfig,
  type ServerConfigInput,
} from '@mcp-agent/core';
import { notFound } from '../store/repositories/connections.js';
import { Availability, judgeServer } from '../store/availability/availability.js';
import type { LaunchPlan, PoolStore } from '../connections/pool/pool-store.js';
import type { RegistryEvents } from '../store/changes/registry-events.js';
import type { ConnectionStateUpdate } from '../store/repositories/connections.js';
import type { CatalogUpdate } from '../store/repositories/tool-catalog.js';

interface Held {
  readonly config: ServerConfig;
  state: ConnectionStateUpdate;
  // When the pool last recorded a state (the context's clock); undefined before.
  recordedAt?: number;
  tools: readonly unknown[];
  version: number;
}

/**
 * A `PoolStore` in memory: servers per tenant, the states and catalogs the pool records, and
 * the registry's server events — for tests of the pool without a database.
 */
export class MemoryPoolStore implements PoolStore {
  readonly events = new EventEmitter<RegistryEvents>();
  readonly #servers = new Map<string, Map<string, Held>>();

  /** Adds or replaces a tenant's server; a replacement emits `server-updated`. */
  put(userId: string, input: ServerConfigInput): void {
    const config = parseServerConfig(input);
    const servers = this.#servers.get(userId) ?? new Map<string, Held>();
    const existed = servers.has(config.id);
    servers.set(config.id, { config, state: { status: 'pending' }, tools: [], version: 0 });
    this.#servers.set(userId, servers);
    if (existed) this.events.emit('server-updated', { userId, serverId: config.id, scope: 'user' });
  }

  /** Removes a tenant's server and emits `server-removed`. */
  remove(userId: string, serverId: string): void {
    if (this.#servers.get(userId)?.delete(serverId) === true)
      this.events.emit('server-removed', { userId, serverId, scope: 'user' });
  }

  /** The last state the pool recorded for a server. */
  state(userId: string, serverId: string): ConnectionStateUpdate | undefined {
    return this.#servers.get(userId)?.get(serverId)?.state;
  }

  /** The tools the pool last listed for a server. */
  tools(userId: string, serverId: string): readonly unknown[] {
    return this.#servers.get(userId)?.get(serverId)?.tools ?? [];
  }

  async availability(ctx: AgentContext): Promise<Availability> {
    const servers = [...(this.#servers.get(ctx.userId)?.values() ?? [])].map((held) => {
      const server = {
        id: held.config.id,
        scope: 'user' as const,
        transport: held.config.transport,
        name: held.config.name,
        description: held.config.description,
        status: held.state.status,
        lastError: held.state.lastError ?? null,
        toolCount: held.version === 0 ? null : held.tools.length,
        catalogVersion: held.version,
      };
      return {
        ...server,
        excludedBy: undefined,
        authorized: true,
        verdict: judgeServer(server, undefined, true),
      };
    });
    return new Availability(servers);
  }

  async launchPlan(ctx: AgentContext, serverId: string): Promise<LaunchPlan> {
    const held = this.#held(ctx, serverId);
    const { status, lastError } = held.state;
    return {
      config: held.config,
      oauth: false,
      publicOnly: false,
      ...(held.recordedAt === undefined
        ? {}
        : { lastState: { status, lastError: lastError ?? null, recordedAt: held.recordedAt } }),
    };
  }

  async recordState(
    ctx: AgentContext,
    serverId: string,
    update: ConnectionStateUpdate,
  ): Promise<void> {
    const held = this.#held(ctx, serverId);
    held.state = update;
    held.recordedAt = ctx.clock.now();
  }

  async replaceCatalog(
    ctx: AgentContext,
    serverId: string,
    tools: readonly unknown[],
  ): Promise<CatalogUpdate> {
    const held = this.#held(ctx, serverId);
    const changed = held.version === 0 || canonicalHash(tools) !== canonicalHash(held.tools);
    if (changed) {
      held.tools = tools;
      held.version += 1;
    }
    return {
      version: held.version,
      toolCount: tools.length,
      added: [],
      removed: [],
      changed: [],
      rejected: [],
      flagged: [],
    };
  }

  #held(ctx: AgentContext, serverId: string): Held {
    const held = this.#servers.get(ctx.userId)?.get(serverId);
    if (held === undefined) throw notFound(serverId);
    return held;
  }
}
