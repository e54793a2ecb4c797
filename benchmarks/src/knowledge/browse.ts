import { performance } from 'node:perf_hooks';
import { basename, resolve } from 'node:path';
import { percentile, round3 } from '@mcp-agent/core/testing';
import {
  BROWSE_PAGE_SIZE,
  type ServerBrowseAnswer,
  ToolSearchIndex,
  toDocument,
  trimText,
} from '@mcp-agent/knowledge';
import {
  browsePage,
  ServerRanking,
  countTokens,
  toToolSpecs,
  readCorpus,
} from '@mcp-agent/knowledge/testing';
import { collect, foldersAndTools, heldBytes, repeated } from './search-speed.js';

// The server sizes whose browse is measured, in tools.
const SIZES = [1, 10, 30, 100, 300];
// Servers of each size made from different stretches of the catalog: the figures are means.
const SAMPLES = 5;
// Queries the server ranking's latency is measured on.
const QUERIES = 500;

/**
 * `pnpm bench browse <folder> [<more folders>…] [--tools <n>]`: what a browse of a whole server
 * costs the model per server size (1, 10, 30, 100, 300 tools made of the folders' real tools):
 * tokens (o200k_base) of the first page, of every page to the end, per tool, and the pages it
 * takes; beside it, the same tools in the search answer's shape (objects with a 160-character
 * description), the alternative the line form was chosen over. Then the server ranking behind
 * `best_servers` over all the tools (`--tools <n>` repeats them under renamed servers): its
 * build time, what it holds beside the tool index, and its latency per query.
 */
export function runBrowseBenchmark(...args: string[]): Record<string, unknown> {
  const { folders, target } = foldersAndTools(args);
  const corpus = folders.flatMap((folder) => readCorpus(folder));
  const specs = toToolSpecs(corpus);

  const sizes = SIZES.map((size) => {
    const firstPages: number[] = [];
    const totals: number[] = [];
    const objects: number[] = [];
    let pages = 0;
    for (let sample = 0; sample < SAMPLES; sample++) {
      // One server of `size` tools, from a stretch of the catalog spread over the samples.
      const from = Math.floor((sample * Math.max(0, specs.length - size)) / SAMPLES);
      const names = new Map<string, number>();
      const tools = specs.slice(from, from + size).map((spec) => {
        const seen = names.get(spec.name) ?? 0;
        names.set(spec.name, seen + 1);
        return {
          name: seen === 0 ? spec.name : `${spec.name}_${seen}`,
          description: spec.description,
        };
      });
      const source = { id: 'server', description: undefined, tools };
      const walked: ServerBrowseAnswer[] = [];
      let cursor: string | undefined;
      do {
        const page = browsePage([source], cursor === undefined ? {} : { cursor });
        walked.push(page);
        cursor = page.next_cursor;
      } while (cursor !== undefined);
      const tokens = walked.map((page) => countTokens(JSON.stringify(page)));
      firstPages.push(tokens[0]!);
      totals.push(tokens.reduce((a, b) => a + b, 0));
      pages = walked.length;
      objects.push(
        countTokens(
          JSON.stringify({
            servers: [
              {
                server: 'server',
                tools: tools.map((tool) => ({
                  tool_id: `server.${tool.name}`,
                  description: trimText(tool.description, 160),
                })),
              },
            ],
          }),
        ),
      );
    }
    const mean = (values: number[]) =>
      Math.round(values.reduce((a, b) => a + b, 0) / values.length);
    return {
      tools: size,
      pages,
      first_page_tokens: mean(firstPages),
      all_pages_tokens: mean(totals),
      tokens_per_tool: round3(mean(totals) / size),
      search_shape_tokens: mean(objects),
    };
  });

  // The server ranking at scale, beside the tool index it accompanies.
  const all = toToolSpecs(repeated(corpus, target));
  const groups = new Map<string, ReturnType<typeof toDocument>[]>();
  for (const spec of all) {
    let group = groups.get(spec.serverId);
    if (group === undefined) groups.set(spec.serverId, (group = []));
    group.push(toDocument(spec));
  }
  // Each held size alone: the ranking first, then the tool index, each from a collected heap.
  collect();
  let before = heldBytes();
  const started = performance.now();
  const ranking = new ServerRanking();
  for (const [server, docs] of groups) ranking.setServer(server, {}, docs);
  const buildMs = performance.now() - started;
  ranking.rank('warm up');
  collect();
  const rankingBytes = heldBytes() - before;
  before = heldBytes();
  const indexStarted = performance.now();
  const index = new ToolSearchIndex();
  for (const [server, docs] of groups) index.setServer(server, docs);
  const indexBuildMs = performance.now() - indexStarted;
  index.search('warm up');
  collect();
  const indexBytes = heldBytes() - before;
  const step = Math.max(1, Math.floor(all.length / QUERIES));
  const latencies: number[] = [];
  const searchLatencies: number[] = [];
  for (let i = 0; i < all.length && latencies.length < QUERIES; i += step) {
    const spec = all[i]!;
    const query = `${spec.name.replace(/_/g, ' ')} ${trimText(spec.description, 80)}`;
    const searched = performance.now();
    const hits = index.search(query, { limit: 5 });
    searchLatencies.push(performance.now() - searched);
    const at = performance.now();
    ranking.rank(query, { hits });
    latencies.push(performance.now() - at);
  }
  return {
    benchmark: 'browse',
    folders: folders.map((f) => basename(resolve(f))),
    tokenizer: 'o200k_base (gpt-tokenizer)',
    page_size: BROWSE_PAGE_SIZE,
    samples_per_size: SAMPLES,
    sizes,
    server_ranking: {
      tools: all.length,
      servers: groups.size,
      build_ms: Math.round(buildMs),
      held_mb: round3(rankingBytes / 2 ** 20),
      tool_index_held_mb: round3(indexBytes / 2 ** 20),
      tool_index_build_ms: Math.round(indexBuildMs),
      rank_ms: { p50: round3(percentile(latencies, 50)), p95: round3(percentile(latencies, 95)) },
      // The tool search of the same queries, for scale: the ranking runs beside it.
      tool_search_ms: {
        p50: round3(percentile(searchLatencies, 50)),
        p95: round3(percentile(searchLatencies, 95)),
      },
      queries: latencies.length,
    },
  };
}
