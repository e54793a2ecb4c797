import { fileURLToPath } from 'node:url';
import {
  ServerRanking,
  browsePage,
  toolSearchAnswer,
  countTokens,
  byServer,
  readCorpus,
  toSearchDocument,
} from '@mcp-agent/knowledge/testing';
import { ToolSearchIndex, type SearchHit, trimText } from '@mcp-agent/knowledge';
import { rankingFromEnv } from './ranking-from-env.js';
import {
  readReachabilitySet,
  scoreRequest,
  summarizeOutcomes,
  type Outcome,
  type ReachabilityRequest,
} from './reachability-set.js';

// The recorded data this bench reads unless told otherwise (package README, "Blind sets").
const DATA = new URL('../../../packages/knowledge/bench-data/', import.meta.url);
const DEFAULT_SET = fileURLToPath(new URL('blind/dev.jsonl', DATA));
const DEFAULT_CATALOG = fileURLToPath(new URL('compat-servers/', DATA));
/** The servers the task suite connects (apps/cli/src/eval/eval-servers.ts). */
export const TASK_SUITE_SERVERS = ['memory', 'files', 'sqlite', 'git', 'pdf', 'time', 'everything'];
// How deep the tool ranking is read (the server ranking takes each server's best hit).
const SERVER_DEPTH = 50;
// The search answer a model sees: five tools, each with its description cut as search_tools
// cuts it (knowledge.ts).
const TOP = 5;
const DESCRIPTION = 160;

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
  // The answer's best servers, as search_tools names them (`ServerRanking`, from the servers'
  // own text and the tool hits); the recorded servers say nothing of themselves beyond tools.
  const serverRanking = new ServerRanking(index.ranking);
  for (const [server, docs] of groups) serverRanking.setServer(server, {}, docs);
  // A browse of one server: the first page search_tools gives for it.
  const browseTokens = new Map(
    [...groups].map(([server, docs]) => [
      server,
      countTokens(
        JSON.stringify(browsePage([{ id: server, description: undefined, tools: docs }])),
      ),
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
      const servers = serverRanking
        .rank(request.request, { limit: 2, servers: config.servers, hits: ranked })
        .map((match) => match.server);
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
    server_ranking: 'ServerRanking (the best_servers of search_tools), first two',
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
