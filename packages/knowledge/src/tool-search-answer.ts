import type { SearchHit } from './search/search-document.js';
import { trimText } from './views/description-text.js';

/** One tool found for a query, and how well it fits that query. */
export interface QueryMatch {
  /** The tool's id. */
  readonly tool_id: string;
  /** 0–1, comparable across queries (see `SearchHit.relevance`). */
  readonly relevance: number;
}

/** What one query of a search found. */
export interface QueryAnswer {
  /** The query, as asked. */
  readonly query: string;
  /** The tools that match this query, best first; their descriptions are under `servers`. */
  readonly matches: readonly QueryMatch[];
  /**
   * True when no connected tool's text answers this query's informative words. `matches` is
   * then empty and `closest` lists the nearest tools (described under `servers`): read them
   * before concluding that nothing connected can do it.
   */
  readonly no_good_match: boolean;
  /** With `no_good_match`: the nearest tools, to judge by their descriptions. */
  readonly closest?: readonly QueryMatch[];
  /**
   * The servers that best match the query as a whole (their own description and their tools'
   * text together), best first, at most three; absent when none shares a word with it. When no
   * tool fits, browsing the first of them (`search_tools` with `servers` and no query) lists
   * every tool it has.
   */
  readonly best_servers?: readonly string[];
}

/** One tool of a search answer, listed once however many queries found it. */
export interface FoundTool {
  /** The tool's id. */
  readonly tool_id: string;
  /** Its description, as its server gives it. */
  readonly description: string;
}

/** The tools of one server found by a search. */
export interface ServerTools {
  /** The server's id. */
  readonly server: string;
  /** Its tools found, best first. */
  readonly tools: readonly FoundTool[];
}

/** The answer to a search of one or several queries. */
export interface ToolSearchAnswer {
  /** One entry per query, in the order asked. */
  readonly queries: readonly QueryAnswer[];
  /** Every tool found, once, grouped by server, in the order first found. */
  readonly servers: readonly ServerTools[];
  /** A sentence for the model and the user when some query had no good match. */
  readonly note?: string;
  /** What degraded this search (for example, semantic ranking unavailable). */
  readonly warnings?: readonly string[];
}

// How many of the nearest tools a query without a good match still shows.
const CLOSEST = 3;

/**
 * Puts the hits of each query into one answer: per query its own top hits, every tool listed
 * once under its server, and queries without a good match (the caller decides, from relevance)
 * marked so instead of offering a wrong tool as if it fitted.
 */
export function toolSearchAnswer(
  perQuery: readonly {
    readonly query: string;
    readonly hits: readonly SearchHit[];
    readonly noGoodMatch: boolean;
    readonly bestServers?: readonly string[];
  }[],
  describe: (hit: SearchHit) => string,
  warnings: readonly string[] = [],
): ToolSearchAnswer {
  const servers = new Map<string, Map<string, FoundTool>>();
  const list = (hit: SearchHit): QueryMatch => {
    let tools = servers.get(hit.server);
    if (tools === undefined) {
      tools = new Map();
      servers.set(hit.server, tools);
    }
    if (!tools.has(hit.id)) tools.set(hit.id, { tool_id: hit.id, description: describe(hit) });
    return { tool_id: hit.id, relevance: hit.relevance };
  };
  const queries = perQuery.map(({ query, hits, noGoodMatch, bestServers = [] }): QueryAnswer => {
    const best = bestServers.length === 0 ? {} : { best_servers: bestServers };
    if (!noGoodMatch) return { query, matches: hits.map(list), no_good_match: false, ...best };
    const closest = hits.slice(0, CLOSEST).map(list);
    return {
      query,
      matches: [],
      no_good_match: true,
      ...(closest.length === 0 ? {} : { closest }),
      ...best,
    };
  });
  const missing = queries.filter((q) => q.no_good_match).map((q) => `"${trimText(q.query, 80)}"`);
  return {
    queries,
    servers: [...servers].map(([server, tools]) => ({ server, tools: [...tools.values()] })),
    ...(missing.length === 0
      ? {}
      : {
          note: `No connected tool's text answers ${missing.join(', ')} in ${missing.length === 1 ? 'its' : 'their'} own words. Read the closest tools' descriptions (listed under servers): one may still do it; else browse the first of its best_servers (search_tools with {"servers": ["<id>"]} and no query lists all its tools) or search again in the words a tool would use. Only when none of them can, tell the user rather than use a tool that does something else.`,
        }),
    ...(warnings.length === 0 ? {} : { warnings }),
  };
}
