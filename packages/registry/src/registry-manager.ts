import {
  formatToolId,
  type AgentContext,
  type JsonObject,
  type ToolAnnotations,
  type ToolSpec,
} from '@mcp-agent/core';
import type { ActiveServer, ActiveServersOptions } from './active-servers.js';
import { notFound } from './repositories/connections.js';
import type { Registry } from './registry.js';
import type { RegistryEvents } from './registry-events.js';

/** Why a tool can or cannot be used right now; `reason` is a sentence a user can act on. */
export type Availability =
  | { readonly available: true }
  | {
      readonly available: false;
      readonly code:
        | 'not_connected'
        | 'disabled'
        | 'disabled_in_thread'
        | 'not_allowed'
        | 'needs_auth'
        | 'failed'
        | 'not_ready'
        | 'tool_unknown';
      readonly reason: string;
    };

/** A provider as the agent sees it: an active server and whether it can be used. */
export interface ProviderSummary extends ActiveServer {
  readonly authorized: boolean;
}

/** The read side of the registry that knowledge and actions use. */
export class RegistryManager {
  constructor(private readonly registry: Registry) {}

  /** Subscribes to server changes; returns the unsubscribe function. */
  on<E extends keyof RegistryEvents>(
    event: E,
    listener: (...args: RegistryEvents[E]) => void,
  ): () => void {
    const emitter = this.registry.events as unknown as NodeJS.EventEmitter;
    emitter.on(event, listener as (...args: unknown[]) => void);
    return () => emitter.off(event, listener as (...args: unknown[]) => void);
  }

  /** The providers in effect for this request, with their state. */
  async getAvailableProviders(
    ctx: AgentContext,
    options: ActiveServersOptions = {},
  ): Promise<ProviderSummary[]> {
    const servers = await this.registry.activeServers(ctx, options);
    return Promise.all(
      servers.map(async (server) => ({
        ...server,
        authorized: await this.registry.isAuthorized(ctx, server.id),
      })),
    );
  }

  /** The cached tools of a provider as `ToolSpec`s; `ProviderNotFoundError` if the tenant has none. */
  async getProviderTools(ctx: AgentContext, providerId: string): Promise<ToolSpec[]> {
    const entries = await this.registry.tiers(ctx, { threadId: ctx.threadId });
    if (!entries.some((entry) => entry.server.id === providerId)) throw notFound(providerId);
    const tools = await this.registry.catalog.list(ctx, providerId);
    return tools.map((tool) => toToolSpec(providerId, tool.raw));
  }

  /** Whether `providerId.toolName` can be called now, and if not, why in words. */
  async checkAvailability(
    ctx: AgentContext,
    providerId: string,
    toolName: string,
    options: ActiveServersOptions = {},
  ): Promise<Availability> {
    const entries = await this.registry.tiers(ctx, options);
    const entry = entries.find((e) => e.server.id === providerId);
    if (entry === undefined) {
      return no(
        'not_connected',
        `Server "${providerId}" is not connected for this user; add it first.`,
      );
    }
    switch (entry.excludedBy) {
      case 'disabled':
        return no('disabled', `Server "${providerId}" is disabled; enable it to use its tools.`);
      case 'disabled_in_thread':
        return no(
          'disabled_in_thread',
          `Server "${providerId}" is not activated in this conversation.`,
        );
      case 'not_allowed':
        return no('not_allowed', `Server "${providerId}" is not in this request's allow-list.`);
    }
    const server = entry.server;
    if (server.status === 'needs_auth' || !(await this.registry.isAuthorized(ctx, providerId))) {
      return no('needs_auth', `Server "${providerId}" needs authorisation; sign in to it again.`);
    }
    if (server.status === 'failed') {
      return no('failed', `Server "${providerId}" failed: ${server.lastError ?? 'unknown error'}.`);
    }
    if (server.toolCount === null) {
      return no(
        'not_ready',
        `Server "${providerId}" has not finished connecting; its tools are not known yet.`,
      );
    }
    const tools = await this.registry.catalog.list(ctx, providerId);
    if (!tools.some((tool) => tool.name === toolName)) {
      return no('tool_unknown', `Server "${providerId}" has no tool "${toolName}".`);
    }
    return { available: true };
  }
}

function no(
  code: Exclude<Availability, { available: true }>['code'],
  reason: string,
): Availability {
  return { available: false, code, reason };
}

/** Reads a raw MCP tool object into a `ToolSpec`, tolerating missing or odd fields. */
export function toToolSpec(providerId: string, raw: JsonObject): ToolSpec {
  const name = String(raw.name);
  const object = (value: unknown): JsonObject | undefined =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as JsonObject)
      : undefined;
  const title = typeof raw.title === 'string' ? raw.title : undefined;
  const outputSchema = object(raw.outputSchema);
  const annotations = object(raw.annotations) as ToolAnnotations | undefined;
  return {
    id: formatToolId(providerId, name),
    providerId,
    name,
    description: typeof raw.description === 'string' ? raw.description : '',
    inputSchema: object(raw.inputSchema) ?? { type: 'object' },
    ...(title === undefined ? {} : { title }),
    ...(outputSchema === undefined ? {} : { outputSchema }),
    ...(annotations === undefined ? {} : { annotations }),
  };
}
