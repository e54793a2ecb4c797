import { performance } from 'node:perf_hooks';
import { createContext } from '@mcp-agent/core';
import { round3 } from '@mcp-agent/core/testing';
import { EmbeddingCacheRepository, openDatabase } from '@mcp-agent/registry';
import { OpenAiCompatibleEmbedder, type SearchDocument } from '@mcp-agent/knowledge';
import { ToolVectors } from '@mcp-agent/knowledge/testing';

/** The embedder a bench measures (`--embedder <url> --embedding-model <name>`). */
export interface BenchEmbedder {
  readonly url: string;
  readonly model: string;
  /** A SQLite file keeping tool vectors between runs, so a slow endpoint embeds each tool once. */
  readonly cacheFile?: string;
}

/** Every tool and every query embedded once, before any clock of the bench starts. */
export interface EmbeddedBench {
  /** The tools' vectors (`nearest` ranks them for a query vector). */
  readonly vectors: ToolVectors;
  /** Each distinct query's vector. */
  readonly queries: ReadonlyMap<string, Float32Array>;
  /** The model and what embedding took, for the bench's JSON. */
  readonly info: Record<string, unknown>;
}

/**
 * Embeds `documents` (their vectors kept in `cacheFile` when given) and `queries` over an
 * OpenAI-compatible endpoint (the key, if it needs one, from `MCP_AGENT_EMBEDDING_API_KEY`).
 */
export async function embedBench(
  embedding: BenchEmbedder,
  documents: readonly SearchDocument[],
  queries: readonly string[],
): Promise<EmbeddedBench> {
  const apiKey = process.env.MCP_AGENT_EMBEDDING_API_KEY;
  const embedder = new OpenAiCompatibleEmbedder({
    url: embedding.url,
    model: embedding.model,
    ...(apiKey ? { apiKey } : {}),
    timeoutMs: 120_000,
  });
  const ctx = createContext({ userId: 'bench' });
  const database =
    embedding.cacheFile === undefined
      ? undefined
      : await openDatabase({ url: embedding.cacheFile });
  try {
    const vectors = new ToolVectors({
      embedder,
      ...(database === undefined ? {} : { cache: new EmbeddingCacheRepository(database.db) }),
    });
    let start = performance.now();
    await vectors.sync(ctx, documents);
    const embedToolsMs = performance.now() - start;
    start = performance.now();
    const distinct = [...new Set(queries)];
    const embedded = await embedder.embed(distinct);
    const embedQueryMs = (performance.now() - start) / Math.max(1, distinct.length);
    return {
      vectors,
      queries: new Map(distinct.map((q, i) => [q, embedded[i]!])),
      info: {
        model: embedder.model,
        embed_tools_ms: round3(embedToolsMs),
        embed_query_ms: round3(embedQueryMs),
      },
    };
  } finally {
    await database?.close();
  }
}
