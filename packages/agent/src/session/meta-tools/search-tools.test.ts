import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext, type AgentContext } from '@mcp-agent/core';
import { Dispatcher } from '@mcp-agent/actions';
import { MemoryToolCallPool } from '@mcp-agent/actions/testing';
import {
  DEFAULT_RANKING,
  Knowledge,
  type ServerBrowseAnswer,
  type ToolSearchAnswer,
} from '@mcp-agent/knowledge';
import type { Registry } from '@mcp-agent/registry';
import { createTestRegistry } from '@mcp-agent/registry/testing';
import { MetaToolSession } from '../meta-tool-session.js';
import { MAX_SEARCH_SCOPE_CHARS, searchScope } from '../search-scope.js';
import { addSearchServers, listedTool as tool } from './search-test-helpers.js';

// search_tools over a real (in-memory SQLite) registry and the real search: one query or
// several, each answered on its own, tools listed once under their server.
let registry: Registry;
let ctx: AgentContext;
let knowledge: Knowledge | undefined;

beforeEach(async () => {
  registry = await createTestRegistry();
  ctx = createContext({ userId: 'alice' });
  knowledge = undefined;
  await addSearchServers(registry, ctx);
});
afterEach(async () => {
  await registry.close();
});

// One Knowledge per registry, as a process holds: it listens to the registry's events.
function session(): MetaToolSession {
  knowledge ??= new Knowledge({ registry });
  return new MetaToolSession({
    knowledge,
    dispatcher: new Dispatcher({ registry, pool: new MemoryToolCallPool({}) }),
  });
}

async function search(input: unknown) {
  return session().run('search_tools', input, { ctx });
}

describe('search_tools', () => {
  it('answers each of several queries with its own matches and relevance, tools once under their server', async () => {
    const observation = await search({
      queries: ['list open issues', 'post a message to a channel', 'open issues', 'horoscope'],
      limit: 2,
    });
    expect(observation.ok).toBe(true);
    const answer = observation.value as unknown as ToolSearchAnswer;
    expect(answer.queries.map((q) => [q.query, q.matches[0]?.tool_id, q.no_good_match])).toEqual([
      ['list open issues', 'github.list_issues', false],
      ['post a message to a channel', 'slack.post_message', false],
      ['open issues', 'github.list_issues', false],
      ['horoscope', undefined, true],
    ]);
    for (const q of answer.queries.slice(0, 3)) {
      expect(q.matches.length).toBeLessThanOrEqual(2);
      expect(q.matches[0]!.relevance).toBeGreaterThanOrEqual(DEFAULT_RANKING.relevance.goodMatch);
      expect(q.matches[0]!.relevance).toBeLessThanOrEqual(1);
    }
    expect(answer.note).toMatch(/No connected tool's text answers "horoscope" in its own words/);
    // Every tool found is described once, under its own server, however many queries found it.
    const listed = answer.servers.flatMap((s) => s.tools.map((t) => `${s.server}/${t.tool_id}`));
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed).toContain('github/github.list_issues');
    expect(listed).toContain('slack/slack.post_message');
    expect(answer.servers.find((s) => s.server === 'github')?.tools[0]).toEqual({
      tool_id: 'github.list_issues',
      description: 'List the open issues of a repository',
    });
  });

  it('answers one query in the same shape, within the servers asked', async () => {
    const one = (await search({ query: 'create', servers: ['calendar'] }))
      .value as unknown as ToolSearchAnswer;
    expect(one.queries).toHaveLength(1);
    expect(one.queries[0]!.matches.map((m) => m.tool_id)).toEqual(['calendar.create_event']);
    expect(one.servers.map((s) => s.server)).toEqual(['calendar']);
    // `providers`, the key's name before issue 31, is refused by name, never ignored.
    const old = await search({ query: 'create', providers: ['calendar'] });
    expect(old.ok).toBe(false);
    expect(old.value).toEqual({
      error: { code: 'INVALID_ARGUMENTS', message: expect.stringMatching(/providers/) },
    });
  });

  it('takes exactly one of query and queries, a bounded list of bounded queries, within 40 hits', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /queries: give "query" \(one search\) or "queries" \(several\)/],
      [{ query: 'a b', queries: ['c d'] }, /queries: give "query" or "queries", not both/],
      [{ queries: [] }, /queries: .*1/],
      [{ queries: Array.from({ length: 9 }, (_, i) => `step ${i}`) }, /queries: .*8/],
      [{ queries: ['ok', ' '] }, /queries\[1\]: /],
      [{ queries: ['ok', 'x'.repeat(2_001)] }, /queries\[1\]: .*2000/],
      [
        { queries: ['a', 'b', 'c'], limit: 20 },
        /limit: 3 queries × 20 results is over 40: ask for at most 13 results per query/,
      ],
    ];
    for (const [input, message] of cases) {
      const observation = await search(input);
      expect(observation.ok).toBe(false);
      expect(observation.value).toEqual({
        error: { code: 'INVALID_ARGUMENTS', message: expect.stringMatching(message) },
      });
    }
    expect((await search({ queries: Array.from({ length: 8 }, (_, i) => `step ${i}`) })).ok).toBe(
      true,
    );
  });

  it('lists both forms in its schema and teaches splitting a task into searches and browsing', () => {
    const listing = session().tools.find((t) => t.name === 'search_tools')!;
    const properties = listing.inputSchema.properties as Record<string, { maxItems?: number }>;
    expect(Object.keys(properties)).toEqual(['query', 'queries', 'limit', 'servers', 'cursor']);
    expect(properties.queries?.maxItems).toBe(8);
    expect(listing.description).toMatch(
      /Split a task of several steps into short searches in one call/,
    );
    // When to browse, said in the tool's description and in the prompt alike.
    expect(listing.description).toMatch(
      /Browse a server \(servers, no query\) on a miss or a need that belongs to one server\./,
    );
  });

  it('browses whole servers with servers and no query: a page of id and first sentence, a cursor to the end', async () => {
    const many = Array.from({ length: 110 }, (_, i) =>
      tool(`job_${String(i).padStart(3, '0')}`, `Runs job ${i}. Then reports.`),
    );
    await registry.addServer(ctx, {
      id: 'ci',
      transport: 'streamable-http',
      url: 'https://ci.example/mcp',
    });
    await registry.replaceCatalog(ctx, 'ci', many);
    await registry.recordState(ctx, 'ci', { status: 'ready' });
    const first = await search({ servers: ['ci', 'slack'] });
    expect(first.ok).toBe(true);
    const page = first.value as unknown as ServerBrowseAnswer;
    expect(page.servers.map((s) => [s.server, s.tool_count, s.tools.length])).toEqual([
      ['ci', 110, 100],
    ]);
    expect(page.servers[0]!.tools[0]).toBe('ci.job_000: Runs job 0.');
    expect(page.shown).toEqual({ from: 1, to: 100, of: 111 });
    const second = (await search({ servers: ['ci', 'slack'], cursor: page.next_cursor }))
      .value as unknown as ServerBrowseAnswer;
    expect(second.servers.map((s) => [s.server, s.tools.length])).toEqual([
      ['ci', 10],
      ['slack', 1],
    ]);
    expect(second.next_cursor).toBeUndefined();
    expect(second.servers[1]!.tools).toEqual([
      'slack.post_message: Post a message to a Slack channel',
    ]);
    // Bad input: a clear error naming what was wrong and how to fix it.
    const cases: [unknown, string, RegExp][] = [
      [
        { servers: ['nope'] },
        'SERVER_NOT_FOUND',
        /Unknown server "nope".*Your servers: calendar, ci, github, slack/,
      ],
      [
        { servers: ['ci'], cursor: 'zzz' },
        'INVALID_ARGUMENTS',
        /The cursor "zzz" is not one search_tools gave/,
      ],
      [
        { servers: ['ci'], limit: 5 },
        'INVALID_ARGUMENTS',
        /limit: "limit" counts results per query; a browse lists 100 tools a page/,
      ],
      [{ query: 'jobs', cursor: 'x' }, 'INVALID_ARGUMENTS', /cursor: "cursor" continues a browse/],
      [{ servers: [] }, 'INVALID_ARGUMENTS', /servers: /],
    ];
    for (const [input, code, message] of cases) {
      const observation = await search(input);
      expect(observation.ok).toBe(false);
      expect(observation.value).toEqual({
        error: { code, message: expect.stringMatching(message) },
      });
    }
    // Another tenant cannot browse this one's server.
    const bob = createContext({ userId: 'bob' });
    const theirs = await session().run('search_tools', { servers: ['ci'] }, { ctx: bob });
    expect(theirs.value).toEqual({
      error: { code: 'SERVER_NOT_FOUND', message: expect.stringMatching(/Unknown server "ci"/) },
    });
  });

  it('says what it searches: the connected servers and what each is for, bounded, and when that changed (#29)', async () => {
    const listed = session();
    knowledge ??= new Knowledge({ registry });
    const scope = searchScope(await knowledge.manifest(ctx));
    expect(scope).toBe(
      'Searches the tools of the servers connected for you: calendar (1 tools: create_event); github (2 tools: create_issue, list_issues); slack (1 tools: post_message).',
    );
    expect(listed.setSearchScope(scope)).toBe(true);
    expect(listed.setSearchScope(scope)).toBe(false);
    const description = listed.tools.find((t) => t.name === 'search_tools')!.description;
    expect(description).toMatch(
      /^Step 1\. .*Searches the tools of the servers connected for you: calendar/,
    );
    // A server removed: the scope changes, so the gateway tells its client to list again.
    await registry.removeServer(ctx, 'slack');
    const after = searchScope(await knowledge.manifest(ctx));
    expect(after).not.toMatch(/slack/);
    expect(listed.setSearchScope(after)).toBe(true);
    // Fifty servers stay within the bound, saying how many more there are.
    const many = {
      servers: Array.from({ length: 50 }, (_, i) => ({
        server: { id: `server${i}`, description: `Server number ${i} does things`.repeat(3) },
        available: true,
        tools: [{ spec: { name: 'a_tool' } }],
      })),
    } as unknown as Parameters<typeof searchScope>[0];
    const bounded = searchScope(many);
    expect(bounded.length).toBeLessThanOrEqual(MAX_SEARCH_SCOPE_CHARS);
    expect(bounded).toMatch(/; and \d+ more\.$/);
  });
});
