import { performance } from 'node:perf_hooks';
import { basename, resolve } from 'node:path';
import { ToolSearchIndex } from '../search/tool-search-index.js';
import { byProvider, readCorpus, readQueries, toSearchDocument } from './bench-data.js';
import { naiveBaseline } from './naive-baseline.js';
import { rankingFromEnv } from './ranking-from-env.js';
import { scoreQuery, summarize } from './retrieval-metrics.js';
import { percentile, round3 } from '@mcp-agent/core/testing';

/**
 * `pnpm bench retrieval <folder>`: the tuned search against the naive baseline on one retrieval
 * folder, in one run. Prints a line per configuration, then one JSON object on the last line.
 */
export function runRetrievalBenchmark(folder: string): Record<string, unknown> {
  const tools = readCorpus(folder);
  const queries = readQueries(folder);
  const documents = tools.map(toSearchDocument);
  const serverOf = new Map(documents.map((d) => [d.id, d.provider || d.id]));
  const server = (id: string) => serverOf.get(id) ?? id;

  const index = new ToolSearchIndex(rankingFromEnv());
  const buildStart = performance.now();
  for (const [provider, docs] of byProvider(documents)) index.setProvider(provider, docs);
  const buildMs = performance.now() - buildStart;
  const baseline = naiveBaseline(documents);

  const configurations: Record<string, (query: string) => string[]> = {
    baseline: (q) => baseline(q, 10),
    tuned: (q) => index.search(q, { limit: 10 }).map((hit) => hit.id),
  };
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
    ...results,
    ratio_tuned_over_baseline: {
      'recall@5': ratio('recall@5'),
      'ndcg@5': ratio('ndcg@5'),
      mrr: ratio('mrr'),
    },
  };
}
