import { createHash } from 'node:crypto';
import { compareText, NotReadyError, type AgentContext } from '@mcp-agent/core';
import type { SearchDocument } from '../search/search-document.js';
import type { TextEmbedder } from './text-embedder.js';

/**
 * Where vectors outlive the process: the subset of the registry's `EmbeddingCacheRepository`
 * the search needs.
 */
export interface EmbeddingCache {
  get(
    ctx: AgentContext,
    model: string,
    contentHashes: readonly string[],
  ): Promise<Map<string, Float32Array>>;
  put(
    ctx: AgentContext,
    model: string,
    entries: readonly { readonly contentHash: string; readonly vector: Float32Array }[],
  ): Promise<void>;
}

/** One tool's similarity to a query. */
export interface Similarity {
  readonly id: string;
  readonly server: string;
  readonly similarity: number;
}

/** Options of {@link ToolVectors}. */
export interface ToolVectorsOptions {
  readonly embedder: TextEmbedder;
  /** Vectors already computed, by any process; default none (every start embeds again). */
  readonly cache?: EmbeddingCache;
  /** Texts per embedding request, each stored as soon as it is answered; default 64. */
  readonly batchSize?: number;
}

interface Entry {
  readonly hash: string;
  readonly server: string;
  readonly vector: Float32Array;
}

// Bumped when the text a tool is embedded from changes, so old vectors are never reused for it.
const TEXT_VERSION = 'tool-text-v1';

/** The text a tool is embedded from: its name, id words, description and parameters. */
export function embeddingText(doc: SearchDocument): string {
  const name = doc.name.replace(/[_\-.]+/g, ' ');
  const parameters = doc.parameters
    .map((p) => (p.description ? `${p.name}: ${p.description}` : p.name))
    .join('; ');
  return [`${name} (${doc.server})`, doc.description, parameters && `Parameters: ${parameters}`]
    .filter((part) => part !== '')
    .join('\n');
}

/** The content hash an embedding of `text` is cached under. */
export function embeddingHash(text: string): string {
  return createHash('sha256').update(`${TEXT_VERSION}\n${text}`).digest('hex');
}

/**
 * The unit vectors of one catalog's tools, for one model: brought in line with the catalog on
 * demand (vectors from the cache first, then the embedder, batch by batch, each batch cached
 * as soon as it is answered, so a failure halfway keeps the first half), one sync at a time.
 */
export class ToolVectors {
  readonly #options: ToolVectorsOptions;
  readonly #entries = new Map<string, Entry>();
  // Owned here, not by the request that started a sync: others may be waiting on it too.
  readonly #abort = new AbortController();
  #syncing: Promise<void> | undefined;
  #missing = 0;

  constructor(options: ToolVectorsOptions) {
    this.#options = options;
  }

  /** The model the vectors come from. */
  get model(): string {
    return this.#options.embedder.model;
  }

  /** Tools with a vector. */
  get size(): number {
    return this.#entries.size;
  }

  /** Tools of the last sync still without a vector (0 once it finished). */
  get missing(): number {
    return this.#missing;
  }

  /**
   * Embeds what `documents` need and drops vectors of tools no longer there; resolves when
   * every tool has its vector, rejects on the first failure (earlier batches stay). A sync
   * already running is joined, not repeated.
   */
  sync(ctx: AgentContext, documents: Iterable<SearchDocument>): Promise<void> {
    this.#syncing ??= this.#sync(ctx, documents).finally(() => {
      this.#syncing = undefined;
    });
    return this.#syncing;
  }

  async #sync(ctx: AgentContext, documents: Iterable<SearchDocument>): Promise<void> {
    const wanted = new Map<string, { doc: SearchDocument; text: string; hash: string }>();
    for (const doc of documents) {
      const text = embeddingText(doc);
      wanted.set(doc.id, { doc, text, hash: embeddingHash(text) });
    }
    for (const [id, entry] of this.#entries) {
      const want = wanted.get(id);
      if (want === undefined || want.hash !== entry.hash || want.doc.server !== entry.server)
        this.#entries.delete(id);
    }
    const todo = [...wanted].filter(([id]) => !this.#entries.has(id));
    this.#missing = todo.length;
    if (todo.length === 0) return;
    const { cache, embedder } = this.#options;
    const cached = cache
      ? await cache.get(
          ctx,
          embedder.model,
          todo.map(([, w]) => w.hash),
        )
      : new Map();
    const toEmbed: typeof todo = [];
    for (const item of todo) {
      const vector = cached.get(item[1].hash);
      if (vector === undefined) toEmbed.push(item);
      else this.#store(item[0], item[1].hash, item[1].doc.server, vector);
    }
    this.#missing = toEmbed.length;
    const size = Math.max(1, this.#options.batchSize ?? 64);
    for (let at = 0; at < toEmbed.length; at += size) {
      const batch = toEmbed.slice(at, at + size);
      const vectors = await embedder.embed(
        batch.map(([, w]) => w.text),
        { signal: this.#abort.signal },
      );
      if (vectors.length !== batch.length) {
        throw new NotReadyError(
          `The embedder returned ${vectors.length} vectors for ${batch.length} texts.`,
        );
      }
      await cache?.put(
        ctx,
        embedder.model,
        batch.map(([, w], i) => ({ contentHash: w.hash, vector: vectors[i]! })),
      );
      batch.forEach(([id, w], i) => this.#store(id, w.hash, w.doc.server, vectors[i]!));
      this.#missing -= batch.length;
    }
  }

  /** Stops a sync under way and drops every vector: the catalog is no longer held. */
  close(): void {
    this.#abort.abort();
    this.#entries.clear();
  }

  #store(id: string, hash: string, server: string, vector: Float32Array): void {
    this.#entries.set(id, { hash, server, vector: unit(vector) });
  }

  /**
   * The `limit` tools most similar to `query` (any vector of the model; normalised here), best
   * first, among `servers` when given.
   */
  nearest(query: Float32Array, limit: number, servers?: ReadonlySet<string>): Similarity[] {
    const q = unit(query);
    const scored: Similarity[] = [];
    for (const [id, entry] of this.#entries) {
      if (servers !== undefined && !servers.has(entry.server)) continue;
      // Vectors of another size come from another model: they never compare.
      if (entry.vector.length !== q.length) continue;
      scored.push({ id, server: entry.server, similarity: dot(q, entry.vector) });
    }
    scored.sort((a, b) => b.similarity - a.similarity || compareText(a.id, b.id));
    return scored.slice(0, limit);
  }
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

function unit(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  if (norm === 0 || Math.abs(norm - 1) < 1e-6) return vector;
  return vector.map((value) => value / norm);
}
