import {
  InvalidArgumentsError,
  McpAgentError,
  PolicyDeniedError,
  parseToolId,
  ToolNotFoundError,
  type AgentContext,
  type ParsedToolId,
  type ToolSpec,
} from '@mcp-agent/core';
import { toToolSpec, type Registry } from '@mcp-agent/registry';
import type { SearchDocument } from './search/search-document.js';
import { ToolSearchIndex, type RankingOptions } from './search/tool-search-index.js';
import { ToolboxBuilder, type ToolManifest } from './toolbox-builder.js';
import { describeTool, type DeepViewOptions, type DeepViewTool } from './views/deep-view.js';
import { inventoryView, type InventoryViewOptions } from './views/inventory-view.js';
import { trimText } from './views/description-text.js';

/** One slim search result: what the model needs to decide which tools to describe. */
export interface ToolSearchResult {
  readonly tool_id: string;
  readonly description: string;
  readonly score: number;
}

/** Options of {@link Knowledge.search}. */
export interface KnowledgeSearchOptions {
  /** Results to return; default 5, at most 50. */
  readonly limit?: number;
  /** Only these providers (intersected with the ones the request may use). */
  readonly providers?: readonly string[];
}

/** Options of {@link Knowledge}. */
export interface KnowledgeOptions {
  readonly registry: Registry;
  readonly ranking?: Partial<RankingOptions>;
  /** Tenants whose search index is kept in memory (least recently used dropped); default 200. */
  readonly maxTenantIndexes?: number;
}

interface TenantIndex {
  readonly index: ToolSearchIndex;
  /** The catalog version each indexed provider was built from. */
  readonly versions: Map<string, number>;
}

/**
 * The knowledge a model needs to find and use tools, for one tenant at a time: the manifest,
 * the inventory view, search, and the deep view. Each tenant has its own search index, updated
 * per provider when a catalog version changes; no result ever comes from another tenant.
 */
export class Knowledge {
  readonly #registry: Registry;
  readonly #toolbox: ToolboxBuilder;
  readonly #ranking: Partial<RankingOptions>;
  readonly #indexes = new Map<string, TenantIndex>();
  readonly #maxIndexes: number;

  constructor(options: KnowledgeOptions) {
    this.#registry = options.registry;
    this.#toolbox = new ToolboxBuilder(options.registry);
    this.#ranking = options.ranking ?? {};
    this.#maxIndexes = options.maxTenantIndexes ?? 200;
    // Removing or redefining a server drops its tools from the tenant's index at once.
    const forget = ({ userId, providerId }: { userId: string; providerId: string }) => {
      const tenant = this.#indexes.get(userId);
      tenant?.index.removeProvider(providerId);
      tenant?.versions.delete(providerId);
    };
    options.registry.events.on('server-removed', forget);
    options.registry.events.on('server-updated', forget);
    // A changed catalog is picked up by version on the next search.
  }

  /** The tenant's manifest for this request (its thread and allow-list), from its availability. */
  manifest(ctx: AgentContext): Promise<ToolManifest> {
    return this.#toolbox.build(ctx);
  }

  /** The inventory view for the model's system prompt. */
  async inventoryView(ctx: AgentContext, options: InventoryViewOptions = {}): Promise<string> {
    return inventoryView(await this.manifest(ctx), options);
  }

  /** Ranked slim results over the tenant's available tools. */
  async search(
    ctx: AgentContext,
    query: string,
    options: KnowledgeSearchOptions = {},
  ): Promise<ToolSearchResult[]> {
    if (typeof query !== 'string' || query.trim() === '') {
      throw new InvalidArgumentsError(
        'The search query is empty: describe the tool you need, for example "create an issue".',
      );
    }
    const limit = Math.min(Math.max(1, options.limit ?? 5), 50);
    const { index, providers } = await this.#sync(ctx, options);
    const hits = index.search(query, { limit, providers });
    return hits.map((hit) => ({
      tool_id: hit.id,
      description: trimText(index.get(hit.id)?.description ?? '', 160),
      score: hit.score,
    }));
  }

  /**
   * The debloated specs of `toolIds`; ids the tenant does not have come back as
   * `ToolNotFoundError`s with the closest ids as suggestions. `full` lifts the view's budgets.
   */
  async deepView(
    ctx: AgentContext,
    toolIds: readonly string[],
    options: DeepViewOptions = {},
  ): Promise<{ tools: DeepViewTool[]; errors: McpAgentError[] }> {
    const tools: DeepViewTool[] = [];
    const errors: McpAgentError[] = [];
    const availability = await this.#registry.availability(ctx);
    // Each id parsed once: a tool id, a server the tenant has outside this request, or nothing.
    const parsed = toolIds.map((raw): ParsedToolId | McpAgentError | undefined => {
      try {
        const id = parseToolId(raw);
        const server = availability.get(id.providerId);
        if (server === undefined) return undefined;
        return server.excludedBy === undefined
          ? id
          : new PolicyDeniedError(`${id.id} is not available in this request.`, {
              details: { toolId: id.id, reason: server.excludedBy },
            });
      } catch {
        return undefined;
      }
    });
    const catalogs = await this.#registry.catalog.listMany(ctx, [
      ...new Set(parsed.flatMap((id) => (id === undefined || isError(id) ? [] : [id.providerId]))),
    ]);
    for (const [index, id] of parsed.entries()) {
      if (id !== undefined && isError(id)) {
        errors.push(id);
        continue;
      }
      const tool = id && catalogs.get(id.providerId)?.find((t) => t.name === id.toolName);
      if (id !== undefined && tool !== undefined)
        tools.push(describeTool(toToolSpec(id.providerId, tool.raw), options));
      else errors.push(await this.#notFound(ctx, id?.id ?? String(toolIds[index])));
    }
    return { tools, errors };
  }

  async #notFound(ctx: AgentContext, id: string): Promise<ToolNotFoundError> {
    const name = id.includes('.') ? id.slice(id.indexOf('.') + 1) : id;
    const { index, providers } = await this.#sync(ctx, {});
    const suggestions =
      name.trim() === '' ? [] : index.search(name, { limit: 3, providers }).map((hit) => hit.id);
    const shown = id.length > 80 ? `${id.slice(0, 80)}…` : id;
    return new ToolNotFoundError(
      `Unknown tool "${shown}".${suggestions.length > 0 ? ` Did you mean ${suggestions.join(', ')}?` : ''} Use search_tools to find tool ids.`,
      { details: { toolId: shown, suggestions } },
    );
  }

  // Brings the tenant's index up to date with the registry (per provider, by catalog version)
  // and returns the providers this request may search.
  async #sync(
    ctx: AgentContext,
    options: KnowledgeSearchOptions,
  ): Promise<{ index: ToolSearchIndex; providers: string[] }> {
    let tenant = this.#indexes.get(ctx.userId);
    if (tenant === undefined) {
      tenant = { index: new ToolSearchIndex(this.#ranking), versions: new Map() };
      if (this.#indexes.size >= this.#maxIndexes) {
        const oldest = this.#indexes.keys().next().value;
        if (oldest !== undefined) this.#indexes.delete(oldest);
      }
    }
    this.#indexes.delete(ctx.userId);
    this.#indexes.set(ctx.userId, tenant);

    const availability = await this.#registry.availability(ctx);
    const known = new Set(availability.servers.map((server) => server.id));
    for (const provider of tenant.index.providers()) {
      if (!known.has(provider)) {
        tenant.index.removeProvider(provider);
        tenant.versions.delete(provider);
      }
    }
    const stale = availability.servers.filter(
      (server) =>
        server.toolCount !== null && tenant.versions.get(server.id) !== server.catalogVersion,
    );
    const catalogs = await this.#registry.catalog.listMany(
      ctx,
      stale.map((server) => server.id),
    );
    for (const server of stale) {
      const specs = (catalogs.get(server.id) ?? []).map((tool) => toToolSpec(server.id, tool.raw));
      tenant.index.setProvider(server.id, specs.map(toDocument));
      tenant.versions.set(server.id, server.catalogVersion);
    }
    const wanted = options.providers === undefined ? undefined : new Set(options.providers);
    const providers = availability.active
      .filter(
        (server) =>
          server.authorized && server.status !== 'failed' && server.status !== 'needs_auth',
      )
      .map((server) => server.id)
      .filter((id) => wanted === undefined || wanted.has(id));
    return { index: tenant.index, providers };
  }
}

/** A `ToolSpec` as a search document. */
export function toDocument(spec: ToolSpec): SearchDocument {
  const properties = spec.inputSchema.properties;
  const entries =
    properties !== null && typeof properties === 'object' && !Array.isArray(properties)
      ? Object.entries(properties)
      : [];
  return {
    id: spec.id,
    provider: spec.providerId,
    name: spec.name,
    description: spec.description || spec.title || '',
    parameters: entries.map(([name, schema]) => {
      const description = (schema as { description?: unknown } | null)?.description;
      return typeof description === 'string' ? { name, description } : { name };
    }),
  };
}

function isError(value: ParsedToolId | McpAgentError): value is McpAgentError {
  return McpAgentError.isInstance(value);
}
