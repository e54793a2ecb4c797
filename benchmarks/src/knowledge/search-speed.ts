import { performance } from 'node:perf_hooks';
import { basename, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { toDocument, ToolSearchIndex, trimText } from '@mcp-agent/knowledge';
import { toToolSpecs, readCorpus, type BenchTool } from '@mcp-agent/knowledge/testing';
import { minisearchIndex } from './minisearch-baseline.js';
import { rankingFromEnv } from './ranking-from-env.js';

import { percentile, round3 } from '@mcp-agent/core/testing';

// A full collection before each memory reading, without asking the caller for `--expose-gc`.
setFlagsFromString('--expose-gc');
/** A full garbage collection, before a memory reading. */
export const collect = runInNewContext('gc') as () => void;

// Builds of each index: the best of them is compared.
const BUILD_RUNS = 5;
// Queries minisearch answers at 100,000 tools take tens of milliseconds each: a sample of them.
const MINISEARCH_QUERIES = 100;

/**
 * `pnpm bench search-speed <folder> [<more folders>…] [--tools <n>]`: index build time over all
 * the tools, query latency (500 queries made of tools' own names and description openings, and
 * 500 three-need requests made of three tools' descriptions, searched whole and as three
 * queries), and the incremental add and removal of a 50-tool server, all in one run. Beside it,
 * interleaved, minisearch's build of the same text, the memory each index holds, and
 * minisearch's latency on a sample of the queries. `--tools <n>` repeats the folders' tools
 * under servers renamed per copy (`<server> copy 2`…) until there are `n` of them.
 */
export function runSearchSpeedBenchmark(...args: string[]): Record<string, unknown> {
  const { folders, target } = foldersAndTools(args);
  const specs = toToolSpecs(
    repeated(
      folders.flatMap((folder) => readCorpus(folder)),
      target,
    ),
  );
  const groups = new Map<string, ReturnType<typeof toDocument>[]>();
  for (const spec of specs) {
    let group = groups.get(spec.serverId);
    if (group === undefined) groups.set(spec.serverId, (group = []));
    group.push(toDocument(spec));
  }

  // Each build from nothing, ours and minisearch's in turn (which goes first alternates), with
  // what each holds once built and searched once (ours packs its arenas at the first search).
  // Wall and CPU time: on a shared machine the wall time of a build is mostly waiting for a core.
  const buildTimes: number[] = [];
  const buildCpu: number[] = [];
  const minisearchTimes: number[] = [];
  const minisearchCpu: number[] = [];
  let index = new ToolSearchIndex(rankingFromEnv());
  let minisearch = minisearchIndex([]);
  let held = 0;
  let minisearchHeld = 0;
  const measure = (
    build: () => void,
    search: () => void,
    times: number[],
    cpu: number[],
  ): number => {
    collect();
    collect();
    const before = heldBytes();
    const start = performance.now();
    const startCpu = process.cpuUsage();
    build();
    times.push(performance.now() - start);
    const { user, system } = process.cpuUsage(startCpu);
    cpu.push((user + system) / 1_000);
    search();
    // Twice: typed arrays' memory is given back after the collection that found them dead.
    collect();
    collect();
    return heldBytes() - before;
  };
  const ours = () => {
    held = measure(
      () => {
        index = new ToolSearchIndex(rankingFromEnv());
        for (const [serverId, docs] of groups) index.setServer(serverId, docs);
      },
      () => index.search('read a file'),
      buildTimes,
      buildCpu,
    );
  };
  const theirs = () => {
    minisearchHeld = measure(
      () => {
        minisearch = minisearchIndex(uniqueDocuments(groups));
      },
      () => minisearch.search('read a file'),
      minisearchTimes,
      minisearchCpu,
    );
  };
  for (let run = 0; run < BUILD_RUNS; run++) {
    index = new ToolSearchIndex();
    minisearch = minisearchIndex([]);
    for (const build of run % 2 === 0 ? [ours, theirs] : [theirs, ours]) build();
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
  // minisearch on every fifth query, against ours on the same ones.
  const sample = queries
    .map((_, i) => i)
    .filter((i) => i % 5 === 0)
    .slice(0, MINISEARCH_QUERIES);
  const minisearchLatencies = sample.map((i) => {
    const start = performance.now();
    minisearch.search(queries[i]!).slice(0, 10);
    return performance.now() - start;
  });
  const sampleLatencies = sample.map((i) => latencies[i]!);
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
      serverId: 'bench-new',
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
    index.setServer('bench-new', server);
    adds.push(performance.now() - start);
    firstQueries.push(time(longQueries[run]!));
    start = performance.now();
    index.removeServer('bench-new');
    removes.push(performance.now() - start);
  }
  return {
    benchmark: 'search-speed',
    folders: folders.map((f) => basename(resolve(f))),
    tools: specs.length,
    // Tools indexed: a server's tools with one name count once.
    indexed: index.size,
    servers: groups.size,
    index_build_ms: { best: round3(Math.min(...buildTimes)), runs: buildTimes.map(round3) },
    index_build_cpu_ms: { best: round3(Math.min(...buildCpu)), runs: buildCpu.map(round3) },
    index_held_mb: round3(held / 2 ** 20),
    minisearch: {
      build_ms: { best: round3(Math.min(...minisearchTimes)), runs: minisearchTimes.map(round3) },
      build_cpu_ms: { best: round3(Math.min(...minisearchCpu)), runs: minisearchCpu.map(round3) },
      held_mb: round3(minisearchHeld / 2 ** 20),
      query_ms: {
        p50: round3(percentile(minisearchLatencies, 50)),
        p99: round3(percentile(minisearchLatencies, 99)),
        queries: minisearchLatencies.length,
      },
    },
    // Ours over minisearch's, in this run: build wall and CPU time (best of each), memory held,
    // query p50 on the same sample of queries.
    versus_minisearch: {
      build: round3(Math.min(...buildTimes) / Math.min(...minisearchTimes)),
      build_cpu: round3(Math.min(...buildCpu) / Math.min(...minisearchCpu)),
      held: round3(held / minisearchHeld),
      query_p50: round3(percentile(sampleLatencies, 50) / percentile(minisearchLatencies, 50)),
    },
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

/** A benchmark's folders, and the catalog size `--tools <n>` asks for (else the folders' own). */
export function foldersAndTools(args: readonly string[]): {
  readonly folders: string[];
  readonly target: number | undefined;
} {
  const flag = args.indexOf('--tools');
  const target = flag === -1 ? undefined : Number(args[flag + 1]);
  if (target !== undefined && !(Number.isInteger(target) && target > 0))
    throw new Error(`--tools takes a positive whole number of tools, not ${args[flag + 1]}`);
  return { folders: args.filter((_, i) => flag === -1 || (i !== flag && i !== flag + 1)), target };
}

/**
 * The tools again under servers renamed per copy, until there are `target` of them: a catalog of
 * the size asked for, with the folders' own vocabulary.
 */
export function repeated(tools: readonly BenchTool[], target: number | undefined): BenchTool[] {
  if (target === undefined || tools.length === 0) return [...tools];
  const out: BenchTool[] = [];
  for (let copy = 1; out.length < target; copy++) {
    for (const tool of tools.slice(0, target - out.length)) {
      const server = tool.server ?? tool.id;
      out.push(
        copy === 1
          ? tool
          : { ...tool, id: `${tool.id} copy ${copy}`, server: `${server} copy ${copy}` },
      );
    }
  }
  return out;
}

// Each tool once (the index keeps the last of a server's tools with one id; minisearch refuses
// a repeated id).
function uniqueDocuments(
  groups: ReadonlyMap<string, readonly ReturnType<typeof toDocument>[]>,
): Iterable<ReturnType<typeof toDocument>> {
  return new Map([...groups.values()].flat().map((doc) => [doc.id, doc])).values();
}

/** What the JavaScript heap and typed-array buffers hold. */
export function heldBytes(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}
