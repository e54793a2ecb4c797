import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createContext, type StepEvent } from '@mcp-agent/core';
import {
  addScripted,
  e2e,
  makeAgent,
  META,
  say,
  use,
  USER,
  useE2eStack,
} from './e2e-test-helpers.js';

useE2eStack();

describe('executeTask end to end (real SDK, scripted model, real MCP servers)', () => {
  it('completes a two-tool task through call_tool', async () => {
    e2e.model.push(
      use('search_tools', { query: 'list open issues' }),
      use('describe_tools', { tool_ids: ['github.list_issues', 'github.add_label'] }),
      use('call_tool', { tool_id: 'github.list_issues', arguments: { repo: 'acme/app' } }),
      use('call_tool', { tool_id: 'github.add_label', arguments: { issue: 7, label: 'bug' } }),
      say('Issue 7 is labelled bug.'),
    );
    const events: StepEvent[] = [];
    const result = await e2e.agent.executeTask('Label the crash issue as a bug', USER, {
      onEvent: (e) => events.push(e),
    });
    expect(result).toMatchObject({
      status: 'completed',
      answer: 'Issue 7 is labelled bug.',
      toolsUsed: ['github.list_issues', 'github.add_label'],
    });
    expect(result.steps.map((s) => [s.command, s.ok])).toEqual([
      ['search_tools', true],
      ['describe_tools', true],
      ['call_tool', true],
      ['call_tool', true],
    ]);
    expect(result.usage).toMatchObject({ inputTokens: 500, outputTokens: 100 });
    expect(result.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(events.map((e) => e.type)).toEqual([
      ...Array(4).fill(['step-start', 'tool-call', 'observation']).flat(),
      'step-start',
      'answer',
    ]);
    // The search observation the model saw names the tool; the call observation has the data.
    const searchResult = JSON.stringify(e2e.model.requests[1]?.body.messages.at(-1));
    expect(searchResult).toContain('github.list_issues');
    expect(JSON.stringify(e2e.model.requests[3]?.body.messages.at(-1))).toContain('Crash on start');
    // Prompt caching of the system prompt with the inventory.
    expect(e2e.model.requests[0]?.body.system).toEqual([
      {
        type: 'text',
        text: expect.stringContaining('## github (2 tools)'),
        cache_control: { type: 'ephemeral' },
      },
    ]);
  });

  it('does the same through run_code, calling two tools from one script', async () => {
    e2e.model.push(
      use('search_tools', { query: 'issues' }),
      use('describe_tools', { tool_ids: ['github.list_issues', 'github.add_label'] }),
      use('run_code', {
        code: 'const issues = await tools.github.list_issues({ repo: "acme/app" }); const crash = issues.find((i) => /crash/i.test(i.title)); await tools.github.add_label({ issue: crash.number, label: "bug" }); return crash.number;',
      }),
      say('Labelled 7.'),
    );
    const result = await e2e.agent.executeTask('Label the crash issue', USER);
    expect(result).toMatchObject({
      status: 'completed',
      answer: 'Labelled 7.',
      toolsUsed: ['github.list_issues', 'github.add_label'],
    });
    expect(result.steps[2]).toMatchObject({
      command: 'run_code',
      ok: true,
      observation: { result: 7, tool_calls: 2 },
    });
  });

  it('delegates through query_connector to a sub-agent scoped to one server', async () => {
    await addScripted('mail', {
      tools: [{ name: 'send', description: 'Send mail', inputSchema: { type: 'object' } }],
    });
    e2e.model.push(
      use('query_connector', {
        connector_id: 'github',
        query: 'How many open issues in acme/app?',
      }),
      // The sub-agent's own turns:
      (request) => {
        const [system] = request.body.system as { text: string }[];
        return system?.text.includes('only the tools of the server "github"')
          ? use('search_tools', { query: 'issues' })
          : say('wrong prompt: the sub-agent was not scoped');
      },
      use('describe_tools', { tool_ids: ['github.list_issues', 'mail.send'] }),
      use('call_tool', { tool_id: 'github.list_issues', arguments: { repo: 'acme/app' } }),
      say('There are 2 open issues.'),
      // Back in the main loop:
      say('acme/app has 2 open issues.'),
    );
    const result = await makeAgent({ connectors: true }).executeTask('How many open issues?', USER);
    expect(result).toMatchObject({
      status: 'completed',
      answer: 'acme/app has 2 open issues.',
      toolsUsed: ['github.list_issues'],
    });
    expect(result.steps[0]).toMatchObject({
      command: 'query_connector',
      observation: { answer: 'There are 2 open issues.', tools_used: ['github.list_issues'] },
    });
    expect(e2e.model.requests[0]?.body.tools?.map((t) => t.name)).toEqual([
      ...META,
      'query_connector',
    ]);
    // The sub-agent could not describe another server's tool.
    expect(JSON.stringify(e2e.model.requests[3]?.body.messages.at(-1))).toContain(
      'mail.send is not available',
    );
  });

  it('a failed server fails the task before any model request, with its diagnostics', async () => {
    await e2e.registry.addServer(createContext({ userId: USER }), {
      id: 'broken',
      transport: 'stdio',
      command: '/nonexistent/mcp-server',
    });
    e2e.model.push(say('should never be asked'));
    const result = await e2e.agent.executeTask('anything', USER);
    expect(result.status).toBe('failed');
    expect(result.error).toMatchObject({
      code: 'NOT_READY',
      details: {
        servers: expect.arrayContaining([
          expect.objectContaining({ id: 'broken', status: 'failed' }),
        ]),
      },
    });
    expect(e2e.model.requests).toHaveLength(0);
    expect(result.usage.inputTokens).toBe(0);
  });

  it('malformed model output is an observation the model recovers from', async () => {
    e2e.model.push(
      use('call_tool', { tool_id: 'github.list_issues' }),
      use('launch_rockets', {}),
      use('call_tool', { tool_id: 'github.list_issues', arguments: { repo: 'a/b' } }),
      use('describe_tools', { tool_ids: ['github.nope', 'not an id'] }),
      use('search_tools', { query: '' }),
      say('Recovered.'),
    );
    const result = await e2e.agent.executeTask('try things', USER);
    expect(result.status).toBe('completed');
    expect(result.steps.map((s) => s.ok)).toEqual([false, false, false, false, false]);
    const seen = e2e.model.requests.slice(1).map((r) => JSON.stringify(r.body.messages.at(-1)));
    expect(seen[0]).toMatch(/Invalid input for call_tool: arguments/);
    expect(seen[1]).toMatch(/Unknown command .{0,6}launch_rockets/);
    expect(seen[2]).toMatch(/Describe github.list_issues with describe_tools before calling it/);
    expect(seen[3]).toMatch(/Unknown tool/);
    expect(seen[4]).toMatch(/Invalid input for search_tools/);
  });

  it('the model never receives more than the meta-tools, with the 818-tool real catalog loaded', async () => {
    const corpus = readFileSync(
      new URL('../../../../shared/bench/catalogs/real-mcp-tools/corpus.jsonl', import.meta.url),
      'utf8',
    )
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            server: string;
            name: string;
            description?: string;
            inputSchema?: object;
          },
      );
    expect(corpus).toHaveLength(818);
    const tools = corpus.map((t) => ({
      name: `${t.server.replace(/[^A-Za-z0-9_-]/g, '_')}__${t.name}`.slice(0, 128),
      description: t.description ?? '',
      inputSchema: t.inputSchema ?? { type: 'object' },
    }));
    await addScripted('catalog', { tools });
    e2e.model.push(use('search_tools', { query: 'create a pull request' }), say('ok'));
    const result = await e2e.agent.executeTask('find the tool', USER);
    expect(result.status).toBe('completed');
    for (const request of e2e.model.requests) {
      expect(request.body.tools?.map((t) => t.name)).toEqual(META);
      expect(JSON.stringify(request.body.tools).length).toBeLessThan(4_000);
    }
    const system = JSON.stringify(e2e.model.requests[0]?.body.system);
    expect(system).toContain('## catalog');
    expect(system.length).toBeLessThan(12_000);
    expect(JSON.stringify(e2e.model.requests[1]?.body.messages.at(-1))).toMatch(
      /catalog\.github__create_pull_request/,
    );
  });
});
