import { describe, expect, it } from 'vitest';
import type { SearchDocument } from './search-document.js';
import { ToolSearchIndex } from './tool-search-index.js';

const doc = (
  server: string,
  name: string,
  description: string,
  params: string[] = [],
): SearchDocument => ({
  id: `${server}.${name}`,
  server,
  name,
  description,
  parameters: params.map((p) => ({ name: p })),
});

function sample(): ToolSearchIndex {
  const index = new ToolSearchIndex();
  index.setServer('github', [
    doc('github', 'create_issue', 'Create a new issue in a GitHub repository', [
      'owner',
      'repo',
      'title',
    ]),
    doc('github', 'list_pull_requests', 'List pull requests of a repository', ['owner', 'repo']),
    doc('github', 'search_code', 'Search code across repositories', ['query']),
  ]);
  index.setServer('gmail', [
    doc('gmail', 'send_email', 'Send an email message to recipients', ['to', 'subject', 'body']),
    doc('gmail', 'search_messages', 'Search mailbox messages', ['query']),
  ]);
  index.setServer('weather', [
    doc('weather', 'get_forecast', 'Weather forecast for a city', ['city']),
  ]);
  return index;
}

describe('ToolSearchIndex', () => {
  it('ranks the matching tool first for natural-language queries', () => {
    const index = sample();
    expect(index.search('open a bug report in my repo')[0]?.id).toBe('github.create_issue');
    expect(index.search('mail my boss the report')[0]?.id).toBe('gmail.send_email');
    expect(index.search('will it rain in Paris tomorrow')[0]?.id).toBe('weather.get_forecast');
    expect(index.search('pull requests')[0]?.id).toBe('github.list_pull_requests');
  });

  it('an exact tool name or id always ranks first', () => {
    const index = sample();
    expect(index.search('search_messages')[0]?.id).toBe('gmail.search_messages');
    expect(index.search('GitHub.Search_Code')[0]?.id).toBe('github.search_code');
  });

  it('the server filter never returns other servers', () => {
    const index = sample();
    const hits = index.search('search', { servers: ['gmail'], limit: 10 });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.server === 'gmail')).toBe(true);
    expect(index.search('search_code', { servers: ['gmail'] }).map((h) => h.id)).not.toContain(
      'github.search_code',
    );
    expect(index.search('anything', { servers: [] })).toEqual([]);
  });

  it('adds and removes servers incrementally', () => {
    const index = sample();
    expect(index.size).toBe(6);
    index.setServer('slack', [
      doc('slack', 'post_message', 'Post a message to a Slack channel', ['channel']),
    ]);
    expect(index.size).toBe(7);
    expect(index.search('post to a slack channel')[0]?.id).toBe('slack.post_message');
    index.removeServer('github');
    expect(index.size).toBe(4);
    expect(index.search('create_issue').map((h) => h.server)).not.toContain('github');
    index.setServer('gmail', [doc('gmail', 'send_email', 'Send mail')]);
    expect(index.size).toBe(3);
    expect(index.get('gmail.search_messages')).toBeUndefined();
    expect(index.servers().sort()).toEqual(['gmail', 'slack', 'weather']);
  });

  it('survives empty, stop-word-only, unicode and huge queries', () => {
    const index = sample();
    expect(index.search('')).toEqual([]);
    expect(index.search('the of and')).toEqual([]);
    expect(() => index.search('天气 预报 🌧️')).not.toThrow();
    expect(() => index.search('weather '.repeat(5_000))).not.toThrow();
    expect(index.search('weather '.repeat(5_000))[0]?.id).toBe('weather.get_forecast');
  });

  it('a ranking override of one nested knob keeps the other defaults', () => {
    // What MCP_AGENT_RANKING='{"fieldBoost":{"name":5}}' hands over: not type-checked JSON.
    const partial = JSON.parse('{"fieldBoost":{"name":5},"bm25":{"k":1.5}}') as object;
    const index = new ToolSearchIndex(partial);
    index.setServer('weather', [doc('weather', 'get_forecast', 'Weather forecast for a city')]);
    const [hit] = index.search('rain forecast');
    expect(hit?.id).toBe('weather.get_forecast');
    expect(Number.isFinite(hit?.score)).toBe(true);
  });

  it('prefers the tool that has the query words side by side', () => {
    // Without word pairs the second tool wins: both words, one of them in its name.
    const index = new ToolSearchIndex();
    index.setServer('finance', [
      doc('finance', 'statement', 'Cash flow statement of a company'),
      doc('finance', 'flow_of_funds', 'Funds flow between accounts; cash held'),
    ]);
    expect(index.search('show the cash flow for ACME')[0]?.id).toBe('finance.statement');
  });

  it('an index changed server by server ranks exactly like one built from scratch', () => {
    const churned = sample();
    churned.setServer('slack', [doc('slack', 'post_message', 'Post a message to a channel')]);
    churned.removeServer('github');
    churned.setServer('gmail', [doc('gmail', 'send_email', 'Send an email message')]);
    churned.removeServer('slack');
    churned.setServer('github', [
      doc('github', 'create_issue', 'Create a new issue in a GitHub repository', ['owner']),
      doc('github', 'search_code', 'Search code across repositories', ['query']),
    ]);
    const fresh = new ToolSearchIndex();
    fresh.setServer('weather', [
      doc('weather', 'get_forecast', 'Weather forecast for a city', ['city']),
    ]);
    fresh.setServer('gmail', [doc('gmail', 'send_email', 'Send an email message')]);
    fresh.setServer('github', [
      doc('github', 'create_issue', 'Create a new issue in a GitHub repository', ['owner']),
      doc('github', 'search_code', 'Search code across repositories', ['query']),
    ]);
    for (const query of ['send a message', 'search the code of a repository', 'rain forecast'])
      expect(churned.search(query)).toEqual(fresh.search(query));
  });

  it('a request with several needs finds each of them', () => {
    const index = sample();
    const ids = index
      .search('Create an issue for the outage. Also send an email to the team.', { limit: 3 })
      .map((h) => h.id);
    expect(ids).toEqual(expect.arrayContaining(['github.create_issue', 'gmail.send_email']));
  });

  it('relevance follows the order of the hits (#29)', () => {
    const index = sample();
    expect(index.search('search code', { limit: 6 }).length).toBeGreaterThan(2);
    for (const query of [
      'search code',
      'create an issue',
      'send an email to the team',
      'weather in Paris tomorrow',
      'list pull requests and search code',
    ]) {
      const relevances = index.search(query, { limit: 6 }).map((hit) => hit.relevance);
      expect(relevances.length).toBeGreaterThan(0);
      for (let i = 1; i < relevances.length; i++)
        expect(relevances[i]).toBeLessThanOrEqual(relevances[i - 1]!);
    }
  });

  it('a request in other words than the tool name is a good match when its description answers it (#29)', () => {
    const index = new ToolSearchIndex();
    index.setServer('dc', [
      doc('dc', 'get_config', 'Get the complete server configuration as JSON'),
      doc(
        'dc',
        'start_process',
        'Start a new terminal process with intelligent state detection. Suitable for shell commands, scripts and long-running programs.',
        ['command', 'timeout_ms'],
      ),
      doc('dc', 'read_file', 'Read the contents of a file from the file system'),
    ]);
    const [best] = index.search('run a shell command', { limit: 3 });
    expect(best?.id).toBe('dc.start_process');
    expect(best!.relevance).toBeGreaterThanOrEqual(index.goodMatch);
    // A request nothing here answers stays under the good-match line.
    const [none] = index.search('book a flight to Paris', { limit: 3 });
    expect(none?.relevance ?? 0).toBeLessThan(index.goodMatch);
  });
});
