import { performance } from 'node:perf_hooks';
import { basename, resolve } from 'node:path';
import { ToolSearchIndex, type SearchDocument } from '@mcp-agent/knowledge';
import {
  SEMANTIC_DEPTH,
  byServer,
  readCorpus,
  readQueries,
  toSearchDocument,
} from '@mcp-agent/knowledge/testing';
import { embedBench, type BenchEmbedder } from './bench-embedder.js';
import { fuseWithEmbedding } from './embedding-fusion.js';
import { naiveBaseline } from './naive-baseline.js';
import { rankingFromEnv } from './ranking-from-env.js';
import { scoreQuery, summarize } from './retrieval-metrics.js';
import { percentile, round3 } from '@mcp-agent/core/testing';

/** The semantic half to measure (`--embedder <url> --embedding-model <name>`). */
export interface RetrievalEmbedding extends BenchEmbedder {
  /** Fusion weights to run; default 0.1, 0.2, 0.3, 0.5, 0.7. */
  readonly weights?: readonly number[];
  /** `--embedding-slot <k>`: the answer's last k places to the embedder ({@link fuseWithEmbedding}). */
  readonly slot?: number;
  /** `--embedding-gate <relevance>`: the embedder only where the words do not answer. */
  readonly gate?: number;
}

/**
 * `pnpm bench retrieval <folder> [--embedder <url> --embedding-model <name>
 * [--embedding-weights 0.2,0.5] [--embedding-cache <file.db>] [--embedding-slot <k>]
 * [--embedding-gate <relevance>]]`: the tuned search against the naive baseline on one
 * retrieval folder, and, with an embedder, the hybrid at each weight (or with the answer's last
 * k places given to the embedder; only where the best lexical relevance is under the gate), in
 * one run (the key, if the endpoint needs one, from `MCP_AGENT_EMBEDDING_API_KEY`). Prints a
 * line per configuration, then one JSON object on the last line.
 */
export async function runRetrievalBenchmark(
  folder: string,
  embedding?: RetrievalEmbedding,
): Promise<Record<string, unknown>> {
  const tools = readCorpus(folder);
  const queries = readQueries(folder);
  const documents = tools.map(toSearchDocument);
  const serverOf = new Map(documents.map((d) => [d.id, d.server || d.id]));
  const server = (id: string) => serverOf.get(id) ?? id;

  const index = new ToolSearchIndex(rankingFromEnv());
  const buildStart = performance.now();
  for (const [serverId, docs] of byServer(documents)) index.setServer(serverId, docs);
  const buildMs = performance.now() - buildStart;
  const baseline = naiveBaseline(documents);

  const configurations: Record<string, (query: string) => string[]> = {
    baseline: (q) => baseline(q, 10),
    tuned: (q) => index.search(q, { limit: 10 }).map((hit) => hit.id),
  };
  const semantic =
    embedding === undefined
      ? undefined
      : await hybridConfigurations(
          index,
          documents,
          queries.map((q) => q.query),
          embedding,
        );
  Object.assign(configurations, semantic?.configurations);
  const results: Record<string, unknown> = {};
  for (const [name, run] of Object.entries(configurations)) {
    const latencies: number[] = [];
    const metrics = queries.map((query) => {
      const start = performance.now();
      const ranked = run(query.query);
      latencies.push(performance.now() - start);
      return scoreQuery(query, ranked, server);
    });
    results[name] = {
      ...summarize(metrics),
      latency_ms: {
        p50: round3(percentile(latencies, 50)),
        p99: round3(percentile(latencies, 99)),
      },
    };
    console.log(`${name.padEnd(9)} ${JSON.stringify(results[name])}`);
  }
  const tuned = results.tuned as Record<string, number>;
  const base = results.baseline as Record<string, number>;
  const ratio = (key: string) => round3((tuned[key] ?? 0) / (base[key] || 1));
  return {
    benchmark: 'retrieval',
    folder: basename(resolve(folder)),
    tools: tools.length,
    queries: queries.length,
    index_build_ms: round3(buildMs),
    ...(semantic === undefined ? {} : { embedding: semantic.info }),
    ...results,
    ratio_tuned_over_baseline: {
      'recall@5': ratio('recall@5'),
      'ndcg@5': ratio('ndcg@5'),
      mrr: ratio('mrr'),
    },
  };
}

// One configuration per fusion weight, over vectors computed once: every tool and query is
// embedded before the clock starts, so latencies are the fused ranking's own (embedding a query
// costs one request more, shown as embed_query_ms).
async function hybridConfigurations(
  index: ToolSearchIndex,
  documents: readonly SearchDocument[],
  queries: readonly string[],
  embedding: RetrievalEmbedding,
): Promise<{
  configurations: Record<string, (query: string) => string[]>;
  info: Record<string, unknown>;
}> {
  const { vectors, queries: queryVectors, info } = await embedBench(embedding, documents, queries);
  const configurations: Record<string, (query: string) => string[]> = {};
  for (const weight of embedding.weights ?? [0.1, 0.2, 0.3, 0.5, 0.7]) {
    const options = {
      weight,
      ...(embedding.slot === undefined ? {} : { slot: embedding.slot }),
      ...(embedding.gate === undefined ? {} : { gate: embedding.gate }),
    };
    configurations[`hybrid_${weight}`] = (q) =>
      fuseWithEmbedding(
        index.search(q, { limit: SEMANTIC_DEPTH }),
        vectors.nearest(queryVectors.get(q)!, SEMANTIC_DEPTH),
        options,
        (id) => index.get(id),
      )
        .slice(0, 10)
        .map((hit) => hit.id);
  }
  configurations.semantic_only = (q) => vectors.nearest(queryVectors.get(q)!, 10).map((s) => s.id);
  return {
    configurations,
    info: {
      ...info,
      ...(embedding.slot === undefined ? {} : { slot: embedding.slot }),
      ...(embedding.gate === undefined ? {} : { gate: embedding.gate }),
    },
  };
}
