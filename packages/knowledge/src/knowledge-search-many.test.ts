import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext, InvalidArgumentsError } from '@mcp-agent/core';
import type { Registry } from '@mcp-agent/registry';
import { createTestRegistry } from '@mcp-agent/registry/testing';
import { Knowledge } from './knowledge.js';
import { MAX_SEARCH_QUERIES } from './search-queries.js';
import { DEFAULT_RANKING } from './search/ranking-options.js';
import { InMemorySearchIndex } from './testing/index.js';

const alice = createContext({ userId: 'alice' });
const GOOD_MATCH = DEFAULT_RANKING.relevance.goodMatch;

const servers: Record<string, { name: string; description: string }[]> = {
  github: [
    { name: 'create_issue', description: 'Create a new issue in a GitHub repository' },
    { name: 'list_issues', description: 'List the issues of a GitHub repository' },
    { name: 'create_pull_request', description: 'Open a pull request in a GitHub repository' },
  ],
  mail: [
    { name: 'send_email', description: 'Send an email to one or more recipients' },
    { name: 'search_email', description: 'Search the mailbox for messages' },
  ],
  // What a memory server lists: no GitHub, no issues, but "create" everywhere.
  memory: [
    { name: 'create_entities', description: 'Create multiple new entities in the knowledge graph' },
    { name: 'create_relations', description: 'Create relations between entities in the graph' },
    { name: 'add_observations', description: 'Add new observations to existing entities' },
  ],
};

async function connect(
  registry: Registry,
  ids: readonly string[],
  descriptions: Record<string, string> = {},
): Promise<void> {
  for (const id of ids) {
    await registry.addServer(alice, {
      id,
      transport: 'streamable-http',
      url: `https://${id}.example/mcp`,
      ...(descriptions[id] === undefined ? {} : { description: descriptions[id] }),
    });
    await registry.replaceCatalog(
      alice,
      id,
      servers[id]!.map((tool) => ({ ...tool, inputSchema: { type: 'object' } })),
    );
    await registry.recordState(alice, id, { status: 'ready' });
  }
}

describe('Knowledge.searchMany', () => {
  let registry: Registry;
  let knowledge: Knowledge;
  beforeEach(async () => {
    registry = await createTestRegistry();
    knowledge = new Knowledge({ registry });
  });
  afterEach(async () => {
    await registry.close();
  });

  it('answers each query with its own hits, every tool once, grouped by server', async () => {
    await connect(registry, ['github', 'mail', 'memory']);
    const answer = await knowledge.searchMany(
      alice,
      ['create an issue', 'send an email', 'open a new issue on github'],
      { limit: 2 },
    );
    expect(answer.queries.map((q) => [q.query, q.matches[0]?.tool_id, q.no_good_match])).toEqual([
      ['create an issue', 'github.create_issue', false],
      ['send an email', 'mail.send_email', false],
      ['open a new issue on github', 'github.create_issue', false],
    ]);
    expect(answer.queries.every((q) => q.matches.length <= 2)).toBe(true);
    // github.create_issue was found twice and is listed once, under its server.
    const listed = answer.servers.flatMap((s) => s.tools.map((t) => t.tool_id));
    expect(listed.filter((id) => id === 'github.create_issue')).toHaveLength(1);
    expect(new Set(listed).size).toBe(listed.length);
    for (const { server, tools } of answer.servers)
      expect(tools.every((t) => t.tool_id.startsWith(`${server}.`))).toBe(true);
    const issue = answer.servers.find((s) => s.server === 'github')?.tools[0];
    expect(issue).toEqual({
      tool_id: 'github.create_issue',
      description: 'Create a new issue in a GitHub repository',
    });
    // Each query says how well its own matches fit it.
    for (const { matches } of answer.queries) {
      expect(matches[0]!.relevance).toBeGreaterThanOrEqual(GOOD_MATCH);
      for (const { relevance } of matches) expect(relevance).toBeLessThanOrEqual(1);
    }
    expect(answer.note).toBeUndefined();
  });

  it('says "no good match" when nothing connected does what a query asks', async () => {
    await connect(registry, ['mail', 'memory']);
    // Ranked alone, a tool still comes first, with a score that says nothing of the fit.
    const [top] = await knowledge.search(alice, 'create a flight booking to Paris');
    expect(top?.score).toBeGreaterThan(0);
    const answer = await knowledge.searchMany(alice, [
      'create a flight booking to Paris',
      'send an email',
    ]);
    expect(answer.queries[0]).toEqual({
      query: 'create a flight booking to Paris',
      matches: [],
      no_good_match: true,
      closest: expect.arrayContaining([{ tool_id: top?.tool_id, relevance: expect.any(Number) }]),
      // The nearest server still named ("create"): the model judges it from its list.
      best_servers: ['memory'],
    });
    expect(answer.queries[1]).toMatchObject({ no_good_match: false });
    expect(answer.queries[1]?.matches[0]?.tool_id).toBe('mail.send_email');
    expect(answer.note).toMatch(
      /No connected tool's text answers "create a flight booking to Paris" in its own words\. Read the closest tools' descriptions .* else browse the first of its best_servers/,
    );
    for (const { relevance } of answer.queries[0]?.closest ?? [])
      expect(relevance).toBeLessThan(GOOD_MATCH);
    expect(answer.queries[1]?.matches[0]?.relevance).toBeGreaterThanOrEqual(GOOD_MATCH);
    expect(answer.servers.flatMap((s) => s.tools).map((t) => t.tool_id)).toContain(top?.tool_id);
  });

  it('names the servers that fit each query as a whole, in order, a few at most, within the servers asked', async () => {
    // A server's own description brings a domain its tools never name.
    await connect(registry, ['github', 'mail', 'memory'], {
      mail: 'Your inbox: letters, newsletters and correspondence.',
    });
    const answer = await knowledge.searchMany(alice, [
      'open a pull request',
      'any newsletters from last week?',
      'who did I tell about the knowledge graph entities',
    ]);
    const best = answer.queries.map((q) => q.best_servers ?? []);
    expect(best[0]![0]).toBe('github');
    expect(best[1]).toEqual(['mail']);
    expect(best[2]![0]).toBe('memory');
    expect(best.every((servers) => servers.length <= 3)).toBe(true);
    // The tool search missed "newsletters"; the server named is where to browse.
    expect(answer.queries[1]!.matches.map((m) => m.tool_id)).not.toContain('mail.send_email');
    const only = await knowledge.searchMany(alice, 'open a pull request', { servers: ['mail'] });
    expect(only.queries[0]!.best_servers ?? []).not.toContain('github');
  });

  it('one string is one query; the same query twice gets the same answer', async () => {
    await connect(registry, ['github']);
    const one = await knowledge.searchMany(alice, 'list issues');
    expect(one.queries).toHaveLength(1);
    expect(one.queries[0]?.matches[0]?.tool_id).toBe('github.list_issues');
    const twice = await knowledge.searchMany(alice, ['list issues', ' list issues ']);
    expect(twice.queries[1]?.matches).toEqual(twice.queries[0]?.matches);
  });

  it('bounds the queries and names what was wrong', async () => {
    await connect(registry, ['github']);
    await expect(knowledge.searchMany(alice, [])).rejects.toBeInstanceOf(InvalidArgumentsError);
    await expect(
      knowledge.searchMany(
        alice,
        Array.from({ length: MAX_SEARCH_QUERIES + 1 }, () => 'issue'),
      ),
    ).rejects.toThrow(/at most 10/);
    await expect(knowledge.searchMany(alice, ['issue', '  '])).rejects.toThrow(
      /Search query 2 is empty/,
    );
    await expect(knowledge.searchMany(alice, ['x'.repeat(2_001)])).rejects.toThrow(
      /one need per query/,
    );
  });

  it('filters every query by server and allow-list, and never shows another tenant', async () => {
    await connect(registry, ['github', 'mail']);
    const answer = await knowledge.searchMany(
      createContext({ userId: 'alice', allowServers: ['mail'] }),
      ['create an issue', 'send an email'],
    );
    expect(answer.servers.map((s) => s.server)).toEqual(['mail']);
    expect(answer.queries[0]?.no_good_match).toBe(true);
    const bob = createContext({ userId: 'bob' });
    const empty = await knowledge.searchMany(bob, ['create an issue']);
    expect(empty.servers).toEqual([]);
    expect(empty.queries[0]).toEqual({
      query: 'create an issue',
      matches: [],
      no_good_match: true,
    });
  });

  it('searches through any SearchIndex, such as the double of ./testing', async () => {
    await connect(registry, ['github', 'mail']);
    const indexes: InMemorySearchIndex[] = [];
    const doubled = new Knowledge({
      registry,
      createIndex: () => {
        indexes.push(new InMemorySearchIndex({ goodMatch: 0.6 }));
        return indexes.at(-1)!;
      },
    });
    const answer = await doubled.searchMany(alice, ['send email', 'issues of a repository']);
    expect(indexes).toHaveLength(1);
    expect(indexes[0]?.size).toBe(5);
    expect(answer.queries.map((q) => q.matches[0]?.tool_id)).toEqual([
      'mail.send_email',
      'github.list_issues',
    ]);
  });
});
