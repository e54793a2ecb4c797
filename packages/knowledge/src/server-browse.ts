import {
  clip,
  compareText,
  InvalidArgumentsError,
  NotReadyError,
  PolicyDeniedError,
  ServerNotFoundError,
  UnauthorizedError,
  type AgentContext,
  type McpAgentError,
} from '@mcp-agent/core';
import { toToolSpec, type Availability, type Registry } from '@mcp-agent/registry';
import { firstSentence, trimText } from './views/description-text.js';

/**
 * Most tools one browse answer lists, over all the servers asked: about 1,500 tokens of lines
 * (`pnpm bench browse`, package README); `next_cursor` continues past it.
 */
export const BROWSE_PAGE_SIZE = 100;
/** Longest summary of one tool in a browse: its description's first sentence, cut here. */
export const BROWSE_SUMMARY_CHARS = 120;
// Characters of a server's own description a browse shows above its tools.
const ABOUT_CHARS = 160;
// Most server ids an unknown-server error lists as the ones to choose from.
const KNOWN_SHOWN = 20;

/** One server's part of a browse page. */
export interface BrowsedServer {
  /** The server's id. */
  readonly server: string;
  /** What the server says it is for (first sentence), when its definition says. */
  readonly about?: string;
  /** How many tools it has in all. */
  readonly tool_count: number;
  /**
   * Its tools on this page, sorted by name, one line each: the tool id, a colon, and the first
   * sentence of its description (`describe_tools` gives the whole).
   */
  readonly tools: readonly string[];
}

/** One page of a browse of whole servers: every tool once, in order, `next_cursor` to go on. */
export interface ServerBrowseAnswer {
  /** The servers asked that have tools on this page, in the order asked. */
  readonly servers: readonly BrowsedServer[];
  /** Which tools of all the servers asked this page shows (1-based, inclusive). */
  readonly shown: {
    /** The first tool on this page, counted from 1 over all the servers asked. */
    readonly from: number;
    /** The last tool on this page. */
    readonly to: number;
    /** How many tools the servers asked have in all. */
    readonly of: number;
  };
  /** Present when more tools follow: pass it as `cursor` with the same servers. */
  readonly next_cursor?: string;
  /** What to do next, in a sentence. */
  readonly note: string;
}

/** Options of a browse. */
export interface BrowseOptions {
  /** `next_cursor` of the previous page of a browse of the same servers; absent: from the start. */
  readonly cursor?: string;
}

/** One server to browse: its id, what it says of itself, and its tools. */
export interface BrowseSource {
  readonly id: string;
  readonly description: string | undefined;
  readonly tools: readonly { readonly name: string; readonly description: string }[];
}

/**
 * One page of a browse of `asked` for the context's tenant (`Knowledge.browse`): the servers
 * checked against this request's availability, their stored tools read in one query.
 */
export async function browseServers(
  registry: Registry,
  ctx: AgentContext,
  asked: readonly string[],
  options: BrowseOptions,
): Promise<ServerBrowseAnswer> {
  const availability = await registry.availability(ctx);
  const ids = browsableServers(availability, asked);
  const catalogs = await registry.storedToolsOf(ctx, ids);
  return browsePage(
    ids.map((id) => ({
      id,
      description: availability.get(id)?.description,
      tools: (catalogs.get(id) ?? []).map((tool) => {
        const spec = toToolSpec(id, tool.raw);
        return { name: spec.name, description: spec.description || spec.title || '' };
      }),
    })),
    options,
  );
}

/**
 * The servers asked, checked against the request's availability (the same the search uses):
 * each must be one of the tenant's, in effect for this request and usable now; the error names
 * the server and what to do. Duplicates are asked once.
 */
export function browsableServers(availability: Availability, asked: readonly string[]): string[] {
  if (asked.length === 0) {
    throw new InvalidArgumentsError(
      'No server to browse: give the ids of the servers whose tools you want listed, for example {"servers": ["github"]}.',
    );
  }
  const ids = [...new Set(asked)];
  for (const id of ids) {
    const server = availability.get(id);
    const shown = clip(String(id), 64);
    if (server === undefined) {
      const known = availability.usable.map((s) => s.id);
      const list =
        known.length === 0
          ? 'No server is usable for you now.'
          : `Your servers: ${known.slice(0, KNOWN_SHOWN).join(', ')}${known.length > KNOWN_SHOWN ? ` and ${known.length - KNOWN_SHOWN} more` : ''}.`;
      throw new ServerNotFoundError(
        `Unknown server "${shown}": no server of yours has that id. ${list} Browse one of them by its id.`,
        { details: { serverId: shown, reason: 'not_connected' } },
      );
    }
    const verdict = server.verdict;
    if (!verdict.available) throw refusal(shown, verdict.code, verdict.reason);
  }
  return ids;
}

// A server the tenant has but may not browse now: the class of the same refusal a call gets.
function refusal(serverId: string, code: string, reason: string): McpAgentError {
  const details = { serverId, reason: code };
  switch (code) {
    case 'needs_auth':
      return new UnauthorizedError(reason, { details });
    case 'disabled':
    case 'disabled_in_thread':
    case 'not_allowed':
      return new PolicyDeniedError(reason, { details });
    default:
      return new NotReadyError(reason, { details });
  }
}

/**
 * One page of the tools of `sources`, in the order given, each server's tools sorted by name,
 * from just after the tool `options.cursor` names, at most {@link BROWSE_PAGE_SIZE} tools.
 *
 * @throws InvalidArgumentsError when the cursor is not one a browse of these servers gave.
 */
export function browsePage(
  sources: readonly BrowseSource[],
  options: BrowseOptions = {},
): ServerBrowseAnswer {
  const lists = sources.map((source) => ({
    source,
    tools: [...source.tools].sort((a, b) => compareText(a.name, b.name)),
  }));
  const total = lists.reduce((sum, list) => sum + list.tools.length, 0);
  let start = 0;
  if (options.cursor !== undefined) {
    const after = readCursor(
      options.cursor,
      sources.map((s) => s.id),
    );
    for (const list of lists) {
      if (list.source.id === after.server) {
        // The first tool past the cursor's name: a tool added or removed since moves nothing.
        start += list.tools.filter((tool) => compareText(tool.name, after.tool) <= 0).length;
        break;
      }
      start += list.tools.length;
    }
  }
  const servers: BrowsedServer[] = [];
  let position = 0;
  let last: { server: string; tool: string } | undefined;
  for (const { source, tools } of lists) {
    const from = Math.max(0, start - position);
    const room = BROWSE_PAGE_SIZE - countLines(servers);
    const page = tools.slice(from, from + Math.max(0, room));
    position += tools.length;
    if (page.length === 0) continue;
    const about = source.description?.trim();
    servers.push({
      server: source.id,
      ...(about === undefined || about === '' ? {} : { about: firstSentence(about, ABOUT_CHARS) }),
      tool_count: tools.length,
      tools: page.map(
        (tool) =>
          `${source.id}.${tool.name}: ${firstSentence(tool.description, BROWSE_SUMMARY_CHARS)}`,
      ),
    });
    last = { server: source.id, tool: page.at(-1)!.name };
  }
  const shownCount = countLines(servers);
  const to = start + shownCount;
  const next = to < total && last !== undefined ? writeCursor(last) : undefined;
  const ids = sources.map((s) => s.id).join(', ');
  return {
    servers,
    shown: { from: shownCount === 0 ? to : start + 1, to, of: total },
    ...(next === undefined ? {} : { next_cursor: next }),
    note:
      next !== undefined
        ? `Tools ${start + 1}–${to} of ${total} of ${trimText(ids, 120)}: call search_tools again with the same "servers" and "cursor": next_cursor for the rest. describe_tools gives a tool's whole description and parameters.`
        : total === 0
          ? `${trimText(ids, 120)} lists no tools.`
          : `${shownCount === total ? 'Every' : 'The last'} tool of ${trimText(ids, 120)} (${total} in all). describe_tools gives a tool's whole description and parameters.`,
  };
}

function countLines(servers: readonly BrowsedServer[]): number {
  return servers.reduce((sum, s) => sum + s.tools.length, 0);
}

// A cursor is the last tool shown, as base64url JSON: opaque to the model, which copies it,
// and positional by name, so it stays valid when the catalog changes between pages.
function writeCursor(last: { server: string; tool: string }): string {
  return Buffer.from(JSON.stringify([last.server, last.tool]), 'utf8').toString('base64url');
}

function readCursor(cursor: string, servers: readonly string[]): { server: string; tool: string } {
  let parsed: unknown;
  try {
    parsed =
      typeof cursor === 'string' && /^[A-Za-z0-9_-]{1,1400}$/.test(cursor)
        ? JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
        : undefined;
  } catch {
    parsed = undefined;
  }
  const shown = clip(String(cursor), 40);
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 2 ||
    typeof parsed[0] !== 'string' ||
    typeof parsed[1] !== 'string'
  ) {
    throw new InvalidArgumentsError(
      `The cursor "${shown}" is not one search_tools gave: pass next_cursor from the previous page as it is, or leave "cursor" out to start from the first tool.`,
      { details: { cursor: shown } },
    );
  }
  if (!servers.includes(parsed[0])) {
    throw new InvalidArgumentsError(
      `The cursor "${shown}" continues a browse of server "${clip(parsed[0], 64)}", which is not in "servers": ask for the same servers as the page that gave it, or leave "cursor" out to start again.`,
      { details: { cursor: shown } },
    );
  }
  return { server: parsed[0], tool: parsed[1] };
}
