import {
  InvalidArgumentsError,
  parseToolId,
  ToolNotFoundError,
  type AgentContext,
  type McpAgentError,
  type ToolSpec,
} from '@mcp-agent/core';
import { RegistryManager, type ActiveServersOptions, type Registry } from '@mcp-agent/registry';
import { SchemaStore, type SchemaStoreOptions, type ToolSchema } from './schema-store.js';
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
  /** Only these providers (intersected with the tenant's active ones). */
  readonly providers?: readonly string[];
  /** `text` (default): ranked BM25 search. `regex`: the query is a pattern on names and descriptions. */
  readonly mode?: 'text' | 'regex';
  /** The call-level allow-list of the request. */
  readonly allow?: readonly string[];
}

/** Options of {@link Knowledge}. */
export interface KnowledgeOptions {
  readonly registry: Registry;
  readonly ranking?: Partial<RankingOptions>;
  readonly schemaStore?: SchemaStoreOptions;
  /** Tenants whose search index is kept in memory (least recently used dropped); default 200. */
  readonly maxTenantIndexes?: number;
}

interface TenantIndex {
  readonly index: ToolSearchIndex;
  /** The catalog version each indexed provider was built from. */
  readonly versions: Map<string, number>;
}

const MAX_PATTERN = 200;

/**
 * The knowledge a model needs to find and use tools, for one tenant at a time: the manifest,
 * the inventory view, search, and the deep view. Each tenant has its own search index, updated
 * per provider when a catalog version changes; no result ever comes from another tenant.
 */
export class Knowledge {
  readonly manager: RegistryManager;
  readonly schemas: SchemaStore;
  readonly #registry: Registry;
  readonly #toolbox: ToolboxBuilder;
  readonly #ranking: Partial<RankingOptions>;
  readonly #indexes = new Map<string, TenantIndex>();
  readonly #maxIndexes: number;

  constructor(options: KnowledgeOptions) {
    this.#registry = options.registry;
    this.manager = new RegistryManager(options.registry);
    this.schemas = new SchemaStore(options.registry, options.schemaStore);
    this.#toolbox = new ToolboxBuilder(this.manager);
    this.#ranking = options.ranking ?? {};
    this.#maxIndexes = options.maxTenantIndexes ?? 200;
    // Removing or redefining a server drops its tools from the tenant's index at once.
    const forget = ({ userId, providerId }: { userId: string; providerId: string }) => {
      const tenant = this.#indexes.get(userId);
      tenant?.index.removeProvider(providerId);
      tenant?.versions.delete(providerId);
    };
    this.manager.on('server-removed', forget);
    this.manager.on('server-updated', forget);
    // A changed catalog is picked up by version on the next search; the schema cache checks it too.
  }

  /** The tenant's manifest, built now from the registry. */
  manifest(ctx: AgentContext, options: ActiveServersOptions = {}): Promise<ToolManifest> {
    return this.#toolbox.build(ctx, options);
  }

  /** The inventory view for the model's system prompt. */
  async inventoryView(
    ctx: AgentContext,
    options: InventoryViewOptions & ActiveServersOptions = {},
  ): Promise<string> {
    return inventoryView(await this.manifest(ctx, options), options);
  }

  /** The schemas of one tool, cached per tenant with a TTL and catalog-version invalidation. */
  getToolSchema(ctx: AgentContext, provider: string, tool: string): Promise<ToolSchema> {
    return this.schemas.getToolSchema(ctx, provider, tool);
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
    const scoped = { limit, providers };
    const hits =
      options.mode === 'regex'
        ? index.searchRegex(compilePattern(query), scoped)
        : index.search(query, scoped);
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
    const specs = new Map<string, ToolSpec[]>();
    const tools: DeepViewTool[] = [];
    const errors: McpAgentError[] = [];
    const active = new Set((await this.#registry.activeServers(ctx)).map((s) => s.id));
    for (const raw of toolIds) {
      let parsed;
      try {
        parsed = parseToolId(raw);
      } catch {
        errors.push(await this.#notFound(ctx, String(raw)));
        continue;
      }
      if (!active.has(parsed.providerId)) {
        errors.push(await this.#notFound(ctx, parsed.id));
        continue;
      }
      let list = specs.get(parsed.providerId);
      if (list === undefined) {
        list = await this.manager.getProviderTools(ctx, parsed.providerId);
        specs.set(parsed.providerId, list);
      }
      const spec = list.find((tool) => tool.name === parsed.toolName);
      if (spec === undefined) errors.push(await this.#notFound(ctx, parsed.id));
      else tools.push(describeTool(spec, options));
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

    const all = await this.manager.getAvailableProviders(ctx, { includeDisabled: true });
    const known = new Set(all.map((p) => p.id));
    for (const provider of tenant.index.providers()) {
      if (!known.has(provider)) {
        tenant.index.removeProvider(provider);
        tenant.versions.delete(provider);
      }
    }
    for (const provider of all) {
      if (
        provider.toolCount === null ||
        tenant.versions.get(provider.id) === provider.catalogVersion
      )
        continue;
      const specs = await this.manager.getProviderTools(ctx, provider.id);
      tenant.index.setProvider(provider.id, specs.map(toDocument));
      tenant.versions.set(provider.id, provider.catalogVersion);
    }
    const usable = await this.manager.getAvailableProviders(ctx, {
      ...(options.allow === undefined ? {} : { allow: options.allow }),
    });
    const wanted = options.providers === undefined ? undefined : new Set(options.providers);
    const providers = usable
      .filter((p) => p.authorized && p.status !== 'failed' && p.status !== 'needs_auth')
      .map((p) => p.id)
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

function compilePattern(pattern: string): RegExp {
  if (pattern.length > MAX_PATTERN) {
    throw new InvalidArgumentsError(
      `The regex is ${pattern.length} characters long; keep it under ${MAX_PATTERN}.`,
    );
  }
  try {
    return new RegExp(pattern, 'iu');
  } catch (error) {
    throw new InvalidArgumentsError(
      `Invalid regex: ${(error as Error).message}. Use JavaScript regular expression syntax.`,
    );
  }
}
