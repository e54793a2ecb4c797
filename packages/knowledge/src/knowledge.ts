import {
  InvalidArgumentsError,
  renamedOption,
  type McpAgentError,
  systemClock,
  type AgentContext,
  type Clock,
} from '@mcp-agent/core';
import { createHash } from 'node:crypto';
import { toToolSpec, type Registry } from '@mcp-agent/registry';
import { CatalogIndexes, serverKey, type CatalogIndex } from './catalog-indexes.js';
import type { SearchHit } from './search/search-document.js';
import type { SearchIndex } from './search/search-index.js';
import { ToolSearchIndex } from './search/tool-search-index.js';
import { fuseForQuery, type RankingSignal, type SignalHit } from './ranking/ranking-signal.js';
import { SEMANTIC_DEPTH, SemanticRanker, semanticSignal } from './semantic/semantic-ranker.js';
import { toolSearchAnswer, type ToolSearchAnswer } from './tool-search-answer.js';
import { ToolboxBuilder, type ToolManifest } from './toolbox-builder.js';
import type { DeepViewOptions, DeepViewTool } from './views/deep-view.js';
import { inventoryView, type InventoryViewOptions } from './views/inventory-view.js';
import { trimText } from './views/description-text.js';
import { checkQueries } from './search-queries.js';
import { browseServers, type BrowseOptions, type ServerBrowseAnswer } from './server-browse.js';
import { toDocument } from './tool-document.js';
import { lookUpTools } from './tool-lookup.js';
import { toolNotFound } from './tool-not-found.js';
import type {
  KnowledgeOptions,
  KnowledgeSearchOptions,
  ToolSearchResult,
} from './knowledge-options.js';

// Declared apart so this file holds the behaviour; the package's surface still names them here.
export type {
  KnowledgeOptions,
  KnowledgeSearchOptions,
  ToolSearchResult,
} from './knowledge-options.js';

// What a tenant's last request found: which catalog index served it, for which catalog
// versions of its servers (hashed: a tenant costs a few hundred bytes however many servers).
interface TenantCatalog {
  readonly versions: string;
  readonly signature: string;
  readonly usedAt: number;
}

// Most servers a search answer names per query as the ones to browse when its tools miss.
const BEST_SERVERS = 3;

// What one search found for each query, before it is shaped for a caller.
interface QueryHits {
  readonly query: string;
  readonly hits: readonly SearchHit[];
  readonly noGoodMatch: boolean;
  /** The servers that best match the query as a whole, best first. */
  readonly bestServers: readonly string[];
}

/**
 * The knowledge a model needs to find and use tools, for one tenant at a time: the manifest,
 * the inventory view, search, and the deep view. Search runs over one index per catalog,
 * shared by the tenants whose servers list the same tools, filtered per request by what the
 * tenant may use: no result ever comes from another tenant's servers.
 */
export class Knowledge {
  readonly #registry: Registry;
  readonly #toolbox: ToolboxBuilder;
  readonly #catalogs: CatalogIndexes;
  readonly #tenants = new Map<string, TenantCatalog>();
  readonly #maxTenants: number;
  readonly #idleMs: number;
  readonly #clock: Clock;
  readonly #semantic: SemanticRanker | undefined;
  readonly #signals: readonly RankingSignal[];
  readonly #close: (() => void)[] = [];

  constructor(options: KnowledgeOptions) {
    this.#registry = options.registry;
    this.#toolbox = new ToolboxBuilder(options.registry);
    const ranking = options.ranking ?? {};
    const semantic =
      options.semantic === undefined
        ? undefined
        : new SemanticRanker(options.semantic, options.registry.embeddings);
    this.#semantic = semantic;
    this.#signals = options.signals ?? [];
    this.#clock = options.clock ?? systemClock;
    this.#catalogs = new CatalogIndexes({
      createIndex: options.createIndex ?? (() => new ToolSearchIndex(ranking)),
      ...(semantic === undefined ? {} : { createVectors: () => semantic.vectorsFor() }),
      maxIndexes: options.maxIndexes ?? 50,
      now: () => this.#clock.now(),
    });
    this.#maxTenants = options.maxTenants ?? 10_000;
    this.#idleMs = options.idleMs ?? 30 * 60_000;
    // Removing or redefining a server makes the tenant's next request look its catalog up again.
    const forget = ({ userId }: { userId: string }) => {
      this.#tenants.delete(userId);
    };
    const { events } = options.registry;
    events.on('server-removed', forget);
    events.on('server-updated', forget);
    this.#close.push(
      () => events.off('server-removed', forget),
      () => events.off('server-updated', forget),
    );
    // A changed catalog is picked up by version on the next search.
    if (this.#idleMs > 0) {
      const timer = setInterval(
        () => this.evictIdle(),
        Math.max(1_000, Math.min(this.#idleMs, 60_000)),
      );
      timer.unref();
      this.#close.push(() => clearInterval(timer));
    }
  }

  /** What the search holds now: catalog indexes and remembered tenants (both bounded). */
  cacheSizes(): {
    /** Catalog search indexes. */
    readonly indexes: number;
    /** Tenants remembered. */
    readonly tenants: number;
  } {
    return { indexes: this.#catalogs.size, tenants: this.#tenants.size };
  }

  /**
   * Drops the indexes and remembered tenants no request used for `idleMs`, and returns how many
   * of each; a timer runs this. A later request rebuilds what it needs.
   */
  evictIdle(): {
    /** Catalog search indexes dropped. */
    readonly indexes: number;
    /** Tenants forgotten. */
    readonly tenants: number;
  } {
    if (this.#idleMs <= 0) return { indexes: 0, tenants: 0 };
    const cutoff = this.#clock.now() - this.#idleMs;
    let tenants = 0;
    // Least recently used first, as #sync re-inserts a tenant on each request.
    for (const [userId, tenant] of this.#tenants) {
      if (tenant.usedAt >= cutoff) break;
      this.#tenants.delete(userId);
      tenants += 1;
    }
    return { indexes: this.#catalogs.evictUnusedSince(cutoff), tenants };
  }

  /** Stops the idle timer and the registry listeners; what is held is dropped with the object. */
  close(): void {
    for (const close of this.#close.splice(0)) close();
  }

  /** The tenant's manifest for this request (its thread and allow-list), from its availability. */
  manifest(ctx: AgentContext): Promise<ToolManifest> {
    return this.#toolbox.build(ctx);
  }

  /** The inventory view for the model's system prompt. */
  async inventoryView(ctx: AgentContext, options: InventoryViewOptions = {}): Promise<string> {
    return inventoryView(await this.manifest(ctx), options);
  }

  /**
   * Ranked slim results over the tenant's available tools, for one query: the plain list, weak
   * hits included. `searchMany` says which queries have no good match.
   *
   * @throws InvalidArgumentsError (`INVALID_ARGUMENTS`) when `query` is empty or not a string.
   * @throws the registry's errors when the tenant's servers cannot be read, and the context's
   *   abort reason when the request is cancelled during a semantic ranking; a failing embedder
   *   is not an error (the ranking is then lexical).
   */
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
    const { index, found } = await this.#run(ctx, [query], options);
    return found[0]!.hits.map((hit) => ({
      tool_id: hit.id,
      description: trimText(index.get(hit.id)?.description ?? '', 160),
      score: hit.score,
      relevance: hit.relevance,
    }));
  }

  /**
   * One search of several queries (at most {@link MAX_SEARCH_QUERIES}), each a short description
   * of one need: every query gets its own top `limit` hits, each tool is listed once under its
   * server, and a query that nothing matches well is marked `no_good_match` instead of being
   * answered with a tool that does something else. A single string is one query. When the
   * semantic ranking fails, the answer is lexical and says so in `warnings`.
   *
   * @throws InvalidArgumentsError (`INVALID_ARGUMENTS`) for no query, more than
   *   {@link MAX_SEARCH_QUERIES}, or a query that is empty or longer than
   *   {@link MAX_QUERY_LENGTH} characters; the message says which one and how to fix it.
   * @throws the registry's errors, and the abort reason on a cancel, as {@link Knowledge.search}.
   * @example
   * ```ts
   * const answer = await knowledge.searchMany(ctx, ['create an issue', 'send an email'], {
   *   limit: 3,
   * });
   * for (const q of answer.queries) if (q.no_good_match) console.log('nothing for', q.query);
   * ```
   */
  async searchMany(
    ctx: AgentContext,
    queries: string | readonly string[],
    options: KnowledgeSearchOptions = {},
  ): Promise<ToolSearchAnswer> {
    const list = checkQueries(typeof queries === 'string' ? [queries] : queries);
    const { index, found, warnings } = await this.#run(ctx, list, options);
    return toolSearchAnswer(
      found,
      (hit) => trimText(index.get(hit.id)?.description ?? '', 160),
      warnings,
    );
  }

  /**
   * The tools of whole servers, compactly, one page at a time: each tool's id and the first
   * sentence of its description, servers in the order asked, tools by name, at most 100 per
   * page (`BROWSE_PAGE_SIZE`) and `next_cursor` to continue. For the model to pick from a
   * server's whole list when a search's words miss its tool.
   *
   * @throws ServerNotFoundError (`SERVER_NOT_FOUND`) for an id that is none of the tenant's,
   *   listing the ones it has; `UnauthorizedError`, `PolicyDeniedError` or `NotReadyError` for
   *   one it has but may not use in this request (the same availability the search uses).
   * @throws InvalidArgumentsError (`INVALID_ARGUMENTS`) for no server or a cursor that is not
   *   one a browse of these servers gave.
   */
  async browse(
    ctx: AgentContext,
    servers: readonly string[],
    options: BrowseOptions = {},
  ): Promise<ServerBrowseAnswer> {
    return browseServers(this.#registry, ctx, servers, options);
  }

  // Every query searched over the tenant's usable tools: lexically, fused with the semantic
  // ranking when it is on and answering; each query searched once however often it is given.
  async #run(
    ctx: AgentContext,
    queries: readonly string[],
    options: KnowledgeSearchOptions,
  ): Promise<{ index: SearchIndex; found: QueryHits[]; warnings: string[] }> {
    const limit = Math.min(Math.max(1, options.limit ?? 5), 50);
    const catalog = await this.#sync(ctx, options);
    const { index, servers } = catalog;
    const distinct = [...new Set(queries)];
    const warnings: string[] = [...(index.warnings ?? [])];
    // The ranking signals beside the lexical search: the semantic ranker when it is on, then
    // any the caller added. One that cannot answer leaves the search to the others, with a warning.
    const signals = [
      ...(this.#semantic === undefined || catalog.vectors === undefined
        ? []
        : [semanticSignal(this.#semantic, catalog.vectors)]),
      ...this.#signals,
    ];
    const scope = { ctx, index, servers: new Set(servers), depth: SEMANTIC_DEPTH };
    const answered: { signal: RankingSignal; ranked: ReadonlyMap<string, readonly SignalHit[]> }[] =
      [];
    for (const signal of signals) {
      const ranking = await signal.rank(distinct, scope);
      if ('warning' in ranking) warnings.push(ranking.warning);
      else answered.push({ signal, ranked: ranking.ranked });
    }
    const byQuery = new Map<string, QueryHits>();
    for (const query of distinct) {
      const others = answered.flatMap(({ signal, ranked }) => {
        const hits = ranked.get(query);
        return hits === undefined ? [] : [{ signal, hits }];
      });
      const lexical = index.search(query, {
        limit: others.length === 0 ? limit : SEMANTIC_DEPTH,
        servers,
      });
      const hits =
        others.length === 0
          ? lexical
          : fuseForQuery(
              query,
              lexical,
              others.map(({ signal, hits }) => ({ weight: signal.weight, hits })),
              index,
            ).slice(0, limit);
      // A good match: the words of some tool answer the query, or a signal with its own
      // threshold (an embedder's similarity) finds a tool at or above it.
      const noGoodMatch =
        !(Math.max(0, ...hits.map((hit) => hit.relevance)) >= index.goodMatch && hits.length > 0) &&
        !others.some(
          ({ signal, hits }) =>
            signal.goodMatch !== undefined && (hits[0]?.score ?? -Infinity) >= signal.goodMatch,
        );
      const bestServers = catalog.serverRanking
        .rank(query, { servers, limit: BEST_SERVERS, hits: lexical })
        .map((match) => match.server);
      byQuery.set(query, { query, hits, noGoodMatch, bestServers });
    }
    return { index, found: queries.map((q) => ({ ...byQuery.get(q)!, query: q })), warnings };
  }

  /**
   * The debloated specs of `toolIds`; ids the tenant does not have come back as
   * `ToolNotFoundError`s with the closest ids as suggestions. `full` lifts the view's budgets.
   */
  deepView(
    ctx: AgentContext,
    toolIds: readonly string[],
    options: DeepViewOptions = {},
  ): Promise<{
    /** The views of the ids found, in the order asked. */
    tools: DeepViewTool[];
    /** One error per id not found, with suggestions. */
    errors: McpAgentError[];
  }> {
    return lookUpTools(this.#registry, ctx, toolIds, options, async (id) => {
      // The suggestions come from the tenant's own searchable tools, as a search would.
      const { index, servers } = await this.#sync(ctx, {});
      return toolNotFound(id, (name) =>
        index.search(name, { limit: 3, servers }).map((hit) => hit.id),
      );
    });
  }

  // The index of the tenant's catalog (shared with every tenant that has the same one) and the
  // servers this request may search in it. The catalog is read from the registry only when
  // a catalog version of the tenant's servers changed since its last request.
  async #sync(
    ctx: AgentContext,
    options: KnowledgeSearchOptions,
  ): Promise<CatalogIndex & { servers: string[] }> {
    const availability = await this.#registry.availability(ctx);
    const servers = availability.servers.filter((server) => server.toolCount !== null);
    const versions = createHash('sha256')
      .update(servers.map((server) => `${server.id}\u0000${server.catalogVersion}`).join('\n'))
      .digest('base64');
    const known = this.#tenants.get(ctx.userId);
    let catalog = known?.versions === versions ? this.#catalogs.get(known.signature) : undefined;
    if (catalog === undefined) {
      const tools = await this.#registry.storedToolsOf(
        ctx,
        servers.map((server) => server.id),
      );
      catalog = this.#catalogs.acquire(
        ctx.userId,
        servers.map((server) => {
          const about = { name: server.name, description: server.description };
          return { id: server.id, key: serverKey(tools.get(server.id) ?? [], about), about };
        }),
        (id) => (tools.get(id) ?? []).map((tool) => toDocument(toToolSpec(id, tool.raw))),
        known?.signature,
      );
    }
    this.#tenants.delete(ctx.userId);
    this.#tenants.set(ctx.userId, {
      versions,
      signature: catalog.signature,
      usedAt: this.#clock.now(),
    });
    if (this.#tenants.size > this.#maxTenants)
      this.#tenants.delete(this.#tenants.keys().next().value!);
    // `providers` was the name of `servers` before issue 31: still obeyed, with a warning.
    const only = renamedOption(options, 'servers', 'providers', 'search options');
    const wanted = only === undefined ? undefined : new Set(only);
    const searchable = availability.active
      .filter(
        (server) =>
          server.authorized && server.status !== 'failed' && server.status !== 'needs_auth',
      )
      .map((server) => server.id)
      .filter((id) => wanted === undefined || wanted.has(id));
    return { ...catalog, servers: searchable };
  }
}
