import { fileURLToPath } from 'node:url';
import { ToolSearchIndex } from '../search/tool-search-index.js';
import type { SearchHit } from '../search/search-document.js';
import { toolSearchAnswer } from '../tool-search-answer.js';
import { firstLine, trimText } from '../views/description-text.js';
import { countTokens } from '../views/token-count.js';
import { byServer, readCorpus, toSearchDocument } from './bench-data.js';
import { rankingFromEnv } from './ranking-from-env.js';
import {
  readReachabilitySet,
  scoreRequest,
  summarizeOutcomes,
  type Outcome,
  type ReachabilityRequest,
} from './reachability-set.js';

// The recorded data this bench reads unless told otherwise (package README, "Blind sets").
const DATA = new URL('../../bench-data/', import.meta.url);
const DEFAULT_SET = fileURLToPath(new URL('blind/dev.jsonl', DATA));
const DEFAULT_CATALOG = fileURLToPath(new URL('compat-servers/', DATA));
/** The servers the task suite connects (apps/cli/src/eval/eval-servers.ts). */
export const TASK_SUITE_SERVERS = ['memory', 'files', 'sqlite', 'git', 'pdf', 'time', 'everything'];
// How deep the ranking is read to order servers (the stand-in below).
const SERVER_DEPTH = 50;
// The search answer a model sees: five tools, each with its description cut as search_tools
// cuts it (knowledge.ts).
const TOP = 5;
const DESCRIPTION = 160;
// A browse lists a server's tools as id and first sentence (issue 42, item 1).
const BROWSE_LINE = 120;

/**
 * `pnpm bench reachability [set-file] [--catalog <folder>] [--failures]`: with every server of
 * the catalog connected, and again with the task suite's seven, the share of a set's requests
 * whose needed tools are in the search's first five; the share reachable in two meta-calls
 * (first five, or a browse of the first two servers the answer names); the tokens that took;
 * and "no good match" wrongly on servable requests and rightly on requests nothing serves.
 * `--failures` prints each miss on stderr (for the dev set only: never read a held-out set's).
 */
export function runReachabilityBenchmark(...args: string[]): Record<string, unknown> {
  const flag = (name: string) => {
    const at = args.indexOf(name);
    return at === -1 ? undefined : args[at + 1];
  };
  const catalog = flag('--catalog') ?? DEFAULT_CATALOG;
  const showFailures = args.includes('--failures');
  const positional = args.filter((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--catalog');
  const setFile = positional[0] ?? DEFAULT_SET;
  const requests = readReachabilitySet(setFile);
  const documents = readCorpus(catalog).map(toSearchDocument);
  const groups = byServer(documents);
  const index = new ToolSearchIndex(rankingFromEnv());
  for (const [server, docs] of groups) index.setServer(server, docs);
  // Each server as one document of all its tools' text, ranked by the same search.
  const serverIndex = new ToolSearchIndex(rankingFromEnv());
  for (const [server, docs] of groups)
    serverIndex.setServer(server, [
      {
        id: server,
        server,
        name: server,
        description: docs.map((doc) => `${doc.name}. ${doc.description}`).join('\n'),
        parameters: docs.flatMap((doc) => doc.parameters),
      },
    ]);
  const browseTokens = new Map(
    [...groups].map(([server, docs]) => [
      server,
      countTokens(JSON.stringify(browse(server, docs))),
    ]),
  );
  const configs = [
    { name: 'all_servers', servers: [...groups.keys()], rows: requests },
    {
      name: 'task_suite_servers',
      servers: TASK_SUITE_SERVERS.filter((s) => groups.has(s)),
      rows: requests.filter((r) => r.target.startsWith('task:') || r.target === 'none'),
    },
  ];
  const results: Record<string, unknown> = {};
  for (const config of configs) {
    const connected = new Set(config.servers);
    const outcomes: { request: ReachabilityRequest; outcome: Outcome; tokens: number }[] = [];
    for (const request of config.rows) {
      const ranked = index.search(request.request, {
        limit: SERVER_DEPTH,
        servers: config.servers,
      });
      const top = ranked.slice(0, TOP);
      const noGoodMatch = !(top.length > 0 && top[0]!.relevance >= index.goodMatch);
      const servers =
        process.env.SERVER_RANKING === 'documents'
          ? serverIndex
              .search(request.request, { limit: 16, servers: config.servers })
              .map((hit) => hit.server)
          : rankServers(ranked);
      const outcome = scoreRequest(
        request.needs,
        { top5: top.map((hit) => hit.id), servers, noGoodMatch },
        (id) => connected.has(id.slice(0, id.indexOf('.'))) && index.get(id) !== undefined,
      );
      const answer = toolSearchAnswer([{ query: request.request, hits: top, noGoodMatch }], (hit) =>
        trimText(index.get(hit.id)?.description ?? '', DESCRIPTION),
      );
      // Two calls: the search, then (when the first five miss) a browse of the first two servers.
      let tokens = countTokens(JSON.stringify(answer));
      if (outcome.kind === 'servable' && !outcome.top5)
        for (const server of servers.slice(0, 2)) tokens += browseTokens.get(server) ?? 0;
      outcomes.push({ request, outcome, tokens });
      if (showFailures && isMiss(outcome))
        console.error(
          `${config.name} line ${request.line} [${request.target}] ${JSON.stringify(request.request)}` +
            ` needs ${JSON.stringify(request.needs)} got ${JSON.stringify(top.map(brief))}` +
            ` servers ${servers.slice(0, 3).join(',')}${noGoodMatch ? ' NO-MATCH' : ''}`,
        );
    }
    const servable = outcomes.filter(({ outcome }) => outcome.kind === 'servable');
    const byKind = (prefix: string) =>
      summarizeOutcomes(
        outcomes.filter(({ request }) => request.target.startsWith(prefix)).map((o) => o.outcome),
      );
    results[config.name] = {
      servers: config.servers.length,
      tools: documents.filter((doc) => connected.has(doc.server)).length,
      requests: config.rows.length,
      ...summarizeOutcomes(outcomes.map((o) => o.outcome)),
      tokens_mean: mean(servable.map((o) => o.tokens)),
      tokens_max: Math.max(0, ...servable.map((o) => o.tokens)),
      by_target: { server: byKind('server:'), task: byKind('task:') },
    };
  }
  return {
    benchmark: 'reachability',
    set: setFile,
    catalog,
    server_ranking: `stand-in: servers in order of their best tool in the first ${SERVER_DEPTH} hits`,
    tokenizer: 'o200k_base',
    ...results,
    browse_tokens_per_server: Object.fromEntries(
      [...groups].map(([server, docs]) => [
        server,
        { tools: docs.length, tokens: browseTokens.get(server) },
      ]),
    ),
  };
}

// The stand-in for the answer's server ranking (issue 42 item 1, built on another branch):
// servers in the order their best tool ranks.
function rankServers(ranked: readonly SearchHit[]): string[] {
  return [...new Set(ranked.map((hit) => hit.server))];
}

// What a browse of one server lists: each tool's id and first sentence.
function browse(server: string, docs: readonly { id: string; description: string }[]) {
  return {
    server,
    tools: docs.map((doc) => ({
      tool_id: doc.id,
      description: firstSentence(doc.description),
    })),
  };
}

function firstSentence(text: string): string {
  const line = firstLine(text, BROWSE_LINE);
  const end = line.search(/[.!?](\s|$)/);
  return end === -1 ? line : line.slice(0, end + 1);
}

function isMiss(outcome: Outcome): boolean {
  if (outcome.kind === 'none') return !outcome.noGoodMatch;
  if (outcome.kind === 'unservable') return false;
  return !outcome.top5 || outcome.noGoodMatch;
}

function brief(hit: SearchHit): string {
  return `${hit.id}@${hit.relevance}`;
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : Math.round(values.reduce((a, b) => a + b, 0) / values.length);
}
