import { fileURLToPath } from 'node:url';
import {
  ServerRanking,
  browsePage,
  toolSearchAnswer,
  countTokens,
  byServer,
  readCorpus,
  toSearchDocument,
  SEMANTIC_DEPTH,
} from '@mcp-agent/knowledge/testing';
import {
  ToolSearchIndex,
  type SearchDocument,
  type SearchHit,
  trimText,
} from '@mcp-agent/knowledge';
import { embedBench } from './bench-embedder.js';
import { fuseWithEmbedding, fusionFlags, type EmbeddingFusionOptions } from './embedding-fusion.js';
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

// The flags that take a value (the rest of the arguments are the set file and switches).
const VALUED = new Set([
  '--catalog',
  '--embedder',
  '--embedding-model',
  '--embedding-weight',
  '--embedding-cache',
  '--embedding-slot',
  '--embedding-gate',
]);

/**
 * `pnpm bench reachability [set-file] [--catalog <folder>] [--failures]`: with every server of
 * the catalog connected, and again with the task suite's seven, the share of a set's requests
 * whose needed tools are in the search's first five; the share reachable in two meta-calls
 * (first five, or a browse of the first two servers the answer names); the tokens that took;
 * and "no good match" wrongly on servable requests and rightly on requests nothing serves.
 * `--failures` prints each miss on stderr (for the dev set only: never read a held-out set's).
 *
 * With `--embedder <url> --embedding-model <name>` an embedder's ranking joins the lexical one
 * (`--embedding-weight <w>`, default 0.3; or `--embedding-slot <k>`, the answer's last k places;
 * `--embedding-gate <relevance>`, only where the words do not answer; `--embedding-servers`,
 * best_servers read the joined ranking too; `--embedding-cache <file.db>` keeps tool vectors).
 */
export async function runReachabilityBenchmark(
  ...args: string[]
): Promise<Record<string, unknown>> {
  const flag = (name: string) => {
    const at = args.indexOf(name);
    return at === -1 ? undefined : args[at + 1];
  };
  const catalog = flag('--catalog') ?? DEFAULT_CATALOG;
  const showFailures = args.includes('--failures');
  const positional = args.filter((arg, i) => !arg.startsWith('--') && !VALUED.has(args[i - 1]!));
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
  const embedding = await embeddingOf(
    flag,
    documents,
    requests.map((r) => r.request),
  );
  const serversJoined = embedding !== undefined && args.includes('--embedding-servers');
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
      const lexical = index.search(request.request, {
        limit: SERVER_DEPTH,
        servers: config.servers,
      });
      const ranked =
        embedding === undefined ? lexical : embedding.join(request.request, lexical, connected);
      const top = ranked.slice(0, TOP);
      // Joined, the answer's relevance is still the words' (the search's fusion keeps it so).
      const relevance =
        embedding === undefined
          ? (top[0]?.relevance ?? 0)
          : Math.max(0, ...lexical.map((hit) => hit.relevance));
      const noGoodMatch = !(top.length > 0 && relevance >= index.goodMatch);
      const servers = serverRanking
        .rank(request.request, {
          limit: 2,
          servers: config.servers,
          hits: serversJoined ? ranked : lexical,
        })
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
    ...(embedding === undefined
      ? {}
      : { embedding: { ...embedding.info, best_servers_joined: serversJoined } }),
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

// The embedder's ranking joined with the lexical one, when `--embedder` is given: every tool and
// request embedded once, then each request's lexical hits joined with its nearest tools among
// the same servers.
async function embeddingOf(
  flag: (name: string) => string | undefined,
  documents: readonly SearchDocument[],
  requests: readonly string[],
): Promise<
  | {
      join: (
        request: string,
        lexical: readonly SearchHit[],
        servers: ReadonlySet<string>,
      ) => SearchHit[];
      info: Record<string, unknown>;
    }
  | undefined
> {
  const url = flag('--embedder');
  if (url === undefined) return undefined;
  const model = flag('--embedding-model');
  if (model === undefined)
    throw new Error('--embedder needs --embedding-model <name>, the model the endpoint serves');
  const weight = Number(flag('--embedding-weight') ?? 0.3);
  if (!(weight >= 0 && weight <= 1))
    throw new Error(
      `--embedding-weight takes a number from 0 to 1, not "${flag('--embedding-weight')}"`,
    );
  const cacheFile = flag('--embedding-cache');
  const options: EmbeddingFusionOptions = {
    weight,
    ...fusionFlags(flag('--embedding-slot'), flag('--embedding-gate')),
  };
  const embedded = await embedBench(
    { url, model, ...(cacheFile === undefined ? {} : { cacheFile }) },
    documents,
    requests,
  );
  const serverOf = new Map(documents.map((doc) => [doc.id, doc]));
  return {
    join: (request, lexical, servers) => {
      const nearest = embedded.vectors.nearest(
        embedded.queries.get(request)!,
        SEMANTIC_DEPTH,
        servers,
      );
      return fuseWithEmbedding(lexical, nearest, options, (id) => serverOf.get(id));
    },
    info: { ...embedded.info, ...options },
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
