import { toMcpAgentError, type AgentContext } from '@mcp-agent/core';
import type { RankingSignal } from '../ranking/ranking-signal.js';
import type { SearchIndex } from '../search/search-index.js';
import type { TextEmbedder } from './text-embedder.js';
import { ToolVectors, type EmbeddingCache, type Similarity } from './tool-vectors.js';

/** Options of the semantic half of the search (`KnowledgeOptions.semantic`). */
export interface SemanticOptions {
  /** Turns queries and tool texts into vectors. */
  readonly embedder: TextEmbedder;
  /** Weight of the semantic ranking in the fusion, 0–1; default 0.3 (measure yours: README). */
  readonly weight?: number;
  /**
   * A similarity at or above which a query has a good match even when no tool shares its words.
   * Similarities depend on the model, so there is no default: unset, words alone decide.
   */
  readonly goodMatch?: number;
  /** How long a search waits for a catalog's vectors before answering lexically; default 10 s. */
  readonly waitMs?: number;
  /** After a failure, searches stay lexical this long before the endpoint is tried again; default 30 s. */
  readonly retryAfterMs?: number;
  /** Query vectors kept in memory, least recently used dropped; default 1,000. */
  readonly maxQueryVectors?: number;
}

/** What the semantic half adds to one search: each query's nearest tools, or why nothing. */
export type SemanticRanking =
  { readonly nearest: ReadonlyMap<string, readonly Similarity[]> } | { readonly warning: string };

// How deep the semantic ranking is kept for fusion (the lexical one keeps the same depth).
export const SEMANTIC_DEPTH = 50;

/**
 * Embeds queries and keeps catalogs' tool vectors in line with their indexes; any failure of
 * the endpoint, before or during a search, turns the search lexical with a warning and keeps
 * the endpoint untried for `retryAfterMs`.
 */
export class SemanticRanker {
  readonly #options: SemanticOptions;
  readonly #cache: EmbeddingCache | undefined;
  readonly #queries = new Map<string, Float32Array>();
  readonly #synced = new WeakMap<ToolVectors, number>();
  #failure: { readonly message: string; readonly at: number } | undefined;

  constructor(options: SemanticOptions, cache?: EmbeddingCache) {
    this.#options = options;
    this.#cache = cache;
  }

  /** The fusion weight. */
  get weight(): number {
    return this.#options.weight ?? 0.3;
  }

  /** The similarity of a good match, when configured. */
  get goodMatch(): number | undefined {
    return this.#options.goodMatch;
  }

  /** A vector set for one catalog's index. */
  vectorsFor(): ToolVectors {
    return new ToolVectors({
      embedder: this.#options.embedder,
      ...(this.#cache === undefined ? {} : { cache: this.#cache }),
    });
  }

  /** The nearest tools of each query among `servers`, or a warning saying why there are none. */
  async rank(
    ctx: AgentContext,
    index: SearchIndex,
    vectors: ToolVectors,
    queries: readonly string[],
    servers: ReadonlySet<string>,
  ): Promise<SemanticRanking> {
    const now = ctx.clock.now();
    const retryAfter = this.#options.retryAfterMs ?? 30_000;
    if (this.#failure !== undefined && now - this.#failure.at < retryAfter) {
      return { warning: this.#lexicalOnly(this.#failure.message) };
    }
    try {
      if (this.#synced.get(vectors) !== index.version || vectors.missing > 0) {
        const version = index.version;
        const sync = vectors.sync(ctx, index.documents());
        // A sync that fails after this search stopped waiting still pauses the endpoint.
        sync.catch((thrown: unknown) => this.#failed(ctx, thrown));
        const done = await settlesWithin(sync, this.#options.waitMs ?? 10_000);
        if (!done) {
          return {
            warning: `Semantic ranking is still embedding this catalog's tools (${vectors.missing} to go); results are lexical only until it finishes.`,
          };
        }
        this.#synced.set(vectors, version);
      }
      const vectorsOf = await this.#embedQueries(ctx, queries);
      this.#failure = undefined;
      return {
        nearest: new Map(
          queries.map((q) => [q, vectors.nearest(vectorsOf.get(q)!, SEMANTIC_DEPTH, servers)]),
        ),
      };
    } catch (thrown) {
      if (ctx.signal.aborted) throw thrown;
      return { warning: this.#lexicalOnly(this.#failed(ctx, thrown)) };
    }
  }

  #failed(ctx: AgentContext, thrown: unknown): string {
    const message = toMcpAgentError(thrown).message;
    this.#failure = { message, at: ctx.clock.now() };
    ctx.logger.warn({ err: message }, 'semantic ranking failed; answering lexically');
    return message;
  }

  #lexicalOnly(message: string): string {
    return `Semantic ranking is unavailable (${message}); results are lexical only.`;
  }

  // Query vectors by (tenant, model, text): a repeated query costs no request, and no tenant
  // can tell from timing what another searched.
  async #embedQueries(
    ctx: AgentContext,
    queries: readonly string[],
  ): Promise<Map<string, Float32Array>> {
    const { embedder } = this.#options;
    const key = (q: string) => `${ctx.userId}\u0000${embedder.model}\u0000${q}`;
    const out = new Map<string, Float32Array>();
    const missing: string[] = [];
    for (const q of new Set(queries)) {
      const vector = this.#queries.get(key(q));
      if (vector === undefined) {
        missing.push(q);
        continue;
      }
      this.#queries.delete(key(q));
      this.#queries.set(key(q), vector);
      out.set(q, vector);
    }
    if (missing.length > 0) {
      const vectors = await embedder.embed(missing, { signal: ctx.signal });
      const max = this.#options.maxQueryVectors ?? 1_000;
      missing.forEach((q, i) => {
        out.set(q, vectors[i]!);
        this.#queries.set(key(q), vectors[i]!);
        if (this.#queries.size > max) this.#queries.delete(this.#queries.keys().next().value!);
      });
    }
    return out;
  }

  /** Query vectors held now (bounded by `maxQueryVectors`). */
  get queryVectors(): number {
    return this.#queries.size;
  }
}

// True when `promise` settles (resolves) within `ms`; a rejection is thrown; the promise keeps
// running past the wait either way.
async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), waited]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The semantic ranker as a ranking signal over one catalog's vectors: each query's nearest
 * tools scored by similarity, weighted by `weight`, a good match at `goodMatch` when set.
 */
export function semanticSignal(ranker: SemanticRanker, vectors: ToolVectors): RankingSignal {
  return {
    name: 'semantic',
    weight: ranker.weight,
    ...(ranker.goodMatch === undefined ? {} : { goodMatch: ranker.goodMatch }),
    async rank(queries, { ctx, index, servers }) {
      const ranking = await ranker.rank(ctx, index, vectors, queries, servers);
      if ('warning' in ranking) return ranking;
      return {
        ranked: new Map(
          [...ranking.nearest].map(([query, nearest]) => [
            query,
            nearest.map(({ id, similarity }) => ({ id, score: similarity })),
          ]),
        ),
      };
    },
  };
}
