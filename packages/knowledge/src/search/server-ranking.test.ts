import { describe, expect, it } from 'vitest';
import type { SearchDocument } from './search-document.js';
import { ServerRanking } from './server-ranking.js';

const tool = (server: string, name: string, description: string): SearchDocument => ({
  id: `${server}.${name}`,
  server,
  name,
  description,
  parameters: [],
});

// A long catalog of generic developer words: what a 300-tool server says over and over.
const VERBS = ['list', 'get', 'create', 'update', 'delete', 'show', 'search', 'export'];
const NOUNS = ['project', 'item', 'record', 'file', 'report', 'setting', 'job', 'label'];
function longCatalog(size: number): SearchDocument[] {
  const docs: SearchDocument[] = [];
  for (let i = 0; docs.length < size; i++) {
    const verb = VERBS[i % VERBS.length]!;
    const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length]!;
    docs.push(
      tool(
        'platform',
        `${verb}_${noun}_${i}`,
        `${verb[0]!.toUpperCase()}${verb.slice(1)} the ${noun}s of a project, with their details, owners and email notifications; shows what changed and lists the matching ${noun}s.`,
      ),
    );
  }
  docs.push(tool('platform', 'rebase_branch', 'Rebase a branch onto another branch.'));
  return docs;
}

const contacts = [
  tool('contacts', 'add_person', 'Save a person with their name, email and phone number.'),
  tool('contacts', 'find_people', 'Find people you know by name or email.'),
  tool('contacts', 'remove_person', 'Remove a person from your address book.'),
];

function ranking(): ServerRanking {
  const servers = new ServerRanking();
  servers.setServer('platform', { description: 'Project management for teams.' }, longCatalog(300));
  servers.setServer('contacts', {}, contacts);
  servers.setServer(
    'weather',
    { name: 'Weather', description: 'Forecasts and current conditions for any city.' },
    [tool('weather', 'forecast', 'Get the forecast for a location.')],
  );
  return servers;
}

describe('ServerRanking', () => {
  it('names the servers that fit a request as a whole, best first, from their own text and their tools', () => {
    const servers = ranking();
    expect(servers.rank('will it rain in Paris tomorrow').map((m) => m.server)).toEqual([
      'weather',
    ]);
    // The server's own description carries a domain its one tool's words do not.
    expect(servers.rank('current conditions').map((m) => m.server)).toEqual(['weather']);
    const ranked = servers.rank('remove a person from my address book');
    expect(ranked[0]?.server).toBe('contacts');
    expect(ranked.map((m) => m.score)).toEqual(
      [...ranked.map((m) => m.score)].sort((a, b) => b - a),
    );
    // Nothing is named for a request no server shares a word with.
    expect(servers.rank('order a pizza with anchovies')).toEqual([]);
  });

  it('does not let a long catalog win on generic words: a short relevant server ranks first', () => {
    const servers = ranking();
    // Every word of this request is in the 300-tool server many times over ("list", "show",
    // "email", "details"); only "people" and "know" are the short server's own.
    const ranked = servers.rank('list and show the people I know with their email details');
    expect(ranked.map((m) => m.server)[0]).toBe('contacts');
    expect(ranked[0]!.score).toBeGreaterThan(ranked[1]?.score ?? 0);
    // …while the long server still wins what only it does.
    expect(servers.rank('rebase my branch').map((m) => m.server)[0]).toBe('platform');
  });

  it('ranks only the servers asked, and forgets a removed one', () => {
    const servers = ranking();
    const within = servers.rank('find people by email', { servers: ['platform', 'weather'] });
    expect(within.length).toBeGreaterThan(0);
    expect(within.every((m) => m.server !== 'contacts')).toBe(true);
    expect(servers.rank('find people by email')[0]?.server).toBe('contacts');
    expect(servers.rank('find people by email', { servers: [] })).toEqual([]);
    servers.removeServer('contacts');
    expect(servers.size).toBe(2);
    expect(servers.rank('find people by email').map((m) => m.server)).not.toContain('contacts');
    expect(servers.rank('forecast', { limit: 0 })).toEqual([]);
  });
});

describe('ServerRanking: general-purpose servers when no tool fits well', () => {
  const warehouse: SearchDocument = {
    id: 'warehouse.run',
    server: 'warehouse',
    name: 'run',
    description: 'Run against the warehouse.',
    parameters: [{ name: 'sql', description: 'Statement to execute' }],
  };
  function withWarehouse(): ServerRanking {
    const servers = ranking();
    servers.setServer('warehouse', {}, [warehouse]);
    servers.setServer('mail', {}, [
      tool('mail', 'count_unread', 'Count the unread messages from people in your inbox.'),
      tool('mail', 'list_people', 'List the people who wrote to you, with their names.'),
    ]);
    return servers;
  }
  const request = 'count the people I know by name';
  const hit = (server: string, relevance: number) => [{ server, score: 5, relevance }];

  it('names a server whose tool takes a program second when the best tool hit is weak', () => {
    const servers = withWarehouse();
    // A tool that answers the request well: the ranking is the text's and the hits' alone.
    const strong = servers.rank(request, { limit: 2, hits: hit('mail', 0.9) });
    expect(strong.map((m) => m.server)).not.toContain('warehouse');
    // The same request with only weak hits: the SQL server, which shares "count" with it
    // through its language's words only, is named second.
    const weak = servers.rank(request, { limit: 2, hits: hit('mail', 0.1) });
    expect(weak.map((m) => m.server)).toEqual([strong[0]!.server, 'warehouse']);
  });

  it('names none that shares no word with the request, and none already named', () => {
    const servers = withWarehouse();
    expect(
      servers.rank('book a flight to Rome', { hits: hit('weather', 0.01) }).map((m) => m.server),
    ).not.toContain('warehouse');
    const sqlFirst = servers.rank('run a sql statement on the warehouse', {
      limit: 2,
      hits: hit('warehouse', 0.1),
    });
    expect(sqlFirst.filter((m) => m.server === 'warehouse')).toHaveLength(1);
    servers.removeServer('warehouse');
    expect(
      servers.rank(request, { limit: 2, hits: hit('mail', 0.1) }).map((m) => m.server),
    ).not.toContain('warehouse');
  });
});

describe('ServerRanking: thesaurus terms the catalog holds', () => {
  it('expands a word to the related terms some tool or server says, not the first of its group', () => {
    const servers = new ServerRanking();
    // "remember"'s group starts with words no server here says ("memorize", "save", "store"…);
    // its last word, "memory", is a server's id. Two expansions a word, as a clause takes.
    servers.setServer('memory', {}, [
      tool('memory', 'create_entities', 'Create entities in the knowledge graph.'),
    ]);
    servers.setServer('clock', {}, [tool('clock', 'now', 'The current time in a timezone.')]);
    expect(servers.rank('remember my sister').map((m) => m.server)).toEqual(['memory']);
  });
});
