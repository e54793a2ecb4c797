import { performance } from 'node:perf_hooks';
import { basename, resolve } from 'node:path';
import { toDocument } from '../tool-document.js';
import { ToolSearchIndex } from '../search/tool-search-index.js';
import { trimText } from '../views/description-text.js';
import { toToolSpecs } from './bench-catalog.js';
import { readCorpus } from './bench-data.js';
import { rankingFromEnv } from './ranking-from-env.js';

import { percentile, round3 } from '@mcp-agent/core/testing';

/**
 * `pnpm bench search-speed <folder> [<more folders>…]`: index build time over all the tools,
 * query latency (500 queries made of tools' own names and description openings, and 500
 * three-need requests made of three tools' descriptions, searched whole and as three queries),
 * and the incremental add and removal of a 50-tool server, all in one run.
 */
export function runSearchSpeedBenchmark(...folders: string[]): Record<string, unknown> {
  const specs = toToolSpecs(folders.flatMap((folder) => readCorpus(folder)));
  const groups = new Map<string, ReturnType<typeof toDocument>[]>();
  for (const spec of specs)
    groups.set(spec.providerId, [...(groups.get(spec.providerId) ?? []), toDocument(spec)]);

  const buildTimes: number[] = [];
  let index = new ToolSearchIndex(rankingFromEnv());
  for (let run = 0; run < 3; run++) {
    index = new ToolSearchIndex(rankingFromEnv());
    const start = performance.now();
    for (const [provider, docs] of groups) index.setProvider(provider, docs);
    buildTimes.push(performance.now() - start);
  }

  const queries: string[] = [];
  const step = Math.max(1, Math.floor(specs.length / 500));
  for (let i = 0; i < specs.length && queries.length < 500; i += step) {
    queries.push(`${specs[i]!.name.replace(/_/g, ' ')} ${trimText(specs[i]!.description, 60)}`);
  }
  // Multi-need requests as agents write them: three tools' descriptions joined into sentences,
  // which also exercises the clause-by-clause pass.
  const needs = queries.map((_, i) =>
    [0, 1, 2].map((k) => trimText(specs[(i * 7919 + k * 104729) % specs.length]!.description, 160)),
  );
  const longQueries = needs.map((parts) => parts.join('. Also, '));
  for (const q of [...queries, ...longQueries].slice(0, 100)) index.search(q); // warm-up
  const time = (q: string) => {
    const start = performance.now();
    index.search(q, { limit: 10 });
    return performance.now() - start;
  };
  const latencies = queries.map(time);
  const longLatencies = longQueries.map(time);
  // The same requests as search_tools' `queries` sends them: one search per need, top 5 each.
  const splitLatencies = needs.map((parts) => {
    const start = performance.now();
    for (const part of parts) index.search(part, { limit: 5 });
    return performance.now() - start;
  });
  // CPU time of the process per long request: what a search costs when other processes share
  // the cores and wall time mostly measures waiting for one.
  const cpuMs = (run: () => void) => {
    const before = process.cpuUsage();
    run();
    const { user, system } = process.cpuUsage(before);
    return (user + system) / 1_000;
  };
  const longCpu = longQueries.map((q) => cpuMs(() => index.search(q, { limit: 10 })));
  const splitCpu = needs.map((parts) =>
    cpuMs(() => {
      for (const part of parts) index.search(part, { limit: 5 });
    }),
  );

  const server = Array.from({ length: 50 }, (_, i) =>
    toDocument({
      id: `bench-new.tool_${i}`,
      providerId: 'bench-new',
      name: `tool_${i}`,
      description: `Benchmark tool number ${i} that manages widgets and gadgets`,
      inputSchema: {
        type: 'object',
        properties: { widget_id: { type: 'string', description: 'The widget' } },
      },
    }),
  );
  const adds: number[] = [];
  const removes: number[] = [];
  // A change invalidates the cached term weights: the next query recomputes those it touches.
  const firstQueries: number[] = [];
  for (let run = 0; run < 20; run++) {
    let start = performance.now();
    index.setProvider('bench-new', server);
    adds.push(performance.now() - start);
    firstQueries.push(time(longQueries[run]!));
    start = performance.now();
    index.removeProvider('bench-new');
    removes.push(performance.now() - start);
  }
  return {
    benchmark: 'search-speed',
    folders: folders.map((f) => basename(resolve(f))),
    tools: specs.length,
    providers: groups.size,
    index_build_ms: { best: round3(Math.min(...buildTimes)), runs: buildTimes.map(round3) },
    query_ms: {
      p50: round3(percentile(latencies, 50)),
      p99: round3(percentile(latencies, 99)),
      queries: latencies.length,
    },
    long_query_ms: {
      p50: round3(percentile(longLatencies, 50)),
      p99: round3(percentile(longLatencies, 99)),
      queries: longLatencies.length,
    },
    long_query_as_three_queries_ms: {
      p50: round3(percentile(splitLatencies, 50)),
      p99: round3(percentile(splitLatencies, 99)),
      queries: splitLatencies.length,
    },
    long_query_cpu_ms: {
      p50: round3(percentile(longCpu, 50)),
      p99: round3(percentile(longCpu, 99)),
    },
    long_query_as_three_queries_cpu_ms: {
      p50: round3(percentile(splitCpu, 50)),
      p99: round3(percentile(splitCpu, 99)),
    },
    add_50_tool_server_ms: { p50: round3(percentile(adds, 50)), max: round3(Math.max(...adds)) },
    first_long_query_after_change_ms: {
      p50: round3(percentile(firstQueries, 50)),
      max: round3(Math.max(...firstQueries)),
    },
    remove_50_tool_server_ms: {
      p50: round3(percentile(removes, 50)),
      max: round3(Math.max(...removes)),
    },
    node: process.version,
  };
}
