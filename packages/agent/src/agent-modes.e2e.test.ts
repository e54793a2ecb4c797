import { describe, expect, it } from 'vitest';
import { ADAPTERS, e2e, say, USER, useE2eStack } from './e2e-test-helpers.js';

// The three tool modes on the same task and stack: only what the model is offered differs.
describe.each(ADAPTERS)('tool modes (%s)', (adapter) => {
  useE2eStack(adapter);

  it('all-tools gives every tool directly, its schema verbatim, and runs a call as call_tool does', async () => {
    e2e.model.push(
      { uses: [{ name: 'github__list_issues', input: { repo: 'acme/app' } }] },
      say('Two open issues.'),
    );
    const result = await e2e.agent.executeTask('List the open issues of acme/app', USER, {
      mode: 'all-tools',
    });
    expect(result).toMatchObject({ status: 'completed', answer: 'Two open issues.' });
    const [first] = e2e.model.requests;
    expect(first?.toolNames).toEqual(['read_result', 'github__add_label', 'github__list_issues']);
    // The server's own schema, not a view of it.
    expect(first?.toolsJson).toContain(
      JSON.stringify({
        type: 'object',
        properties: { repo: { type: 'string' } },
        required: ['repo'],
      }),
    );
    expect(first?.system).not.toMatch(/search_tools/);
    expect(result.steps).toMatchObject([{ command: 'github__list_issues', ok: true }]);
    expect(e2e.model.requests[1]?.results[0]?.content).toContain('Crash on start');
    expect(result.toolsUsed).toEqual(['github.list_issues']);
  });

  it('all-tools checks a direct call against the tool schema and names the bad argument', async () => {
    e2e.model.push(
      { uses: [{ name: 'github__list_issues', input: { repo: 7 } }] },
      say('It failed.'),
    );
    const result = await e2e.agent.executeTask('List the open issues', USER, { mode: 'all-tools' });
    expect(result.steps).toMatchObject([{ command: 'github__list_issues', ok: false }]);
    expect(e2e.model.requests[1]?.results[0]).toMatchObject({ isError: true });
    expect(e2e.model.requests[1]?.results[0]?.content).toMatch(/repo/);
  });

  it('code-first offers run_code with every declaration, callable without describe_tools', async () => {
    e2e.model.push(
      {
        uses: [
          {
            name: 'run_code',
            input: {
              code: 'const r = await tools.github.list_issues({ repo: "acme/app" }); return r;',
            },
          },
        ],
      },
      say('Done.'),
    );
    const result = await e2e.agent.executeTask('List the open issues of acme/app', USER, {
      mode: 'code-first',
    });
    expect(result.status).toBe('completed');
    const [first] = e2e.model.requests;
    expect(first?.toolNames).toEqual(['run_code', 'read_result']);
    expect(first?.system).toContain('github.list_issues');
    expect(first?.system).toContain('github.add_label');
    expect(result.steps).toMatchObject([{ command: 'run_code', ok: true }]);
    expect(result.toolsUsed).toEqual(['github.list_issues']);
  });

  it('code-first declares each tool by its description and call signature, not its whole deep view', async () => {
    e2e.model.push(say('Done.'));
    await e2e.agent.executeTask('List the open issues of acme/app', USER, { mode: 'code-first' });
    const system = e2e.model.requests[0]?.system ?? '';
    expect(system).toMatch(/\/\/ .+\ngithub\.list_issues\(\{ repo: string \}\)/);
    expect(system).not.toContain('"call_signature"');
    expect(system).not.toContain('"parameters"');
  });

  it('the three modes share one system prompt apart from the tool section', async () => {
    const systems: string[] = [];
    for (const mode of ['discovery', 'all-tools', 'code-first'] as const) {
      e2e.model.push(say('Done.'));
      const before = e2e.model.requests.length;
      await e2e.agent.executeTask('List the open issues of acme/app', USER, { mode });
      systems.push(e2e.model.requests[before]?.system ?? '');
    }
    // The rules before the listing, less the lines that say how this mode reaches the tools.
    const shared = (system: string) =>
      system
        .split('\n# ')[0]!
        .split('\n')
        .filter((line) => line !== '' && !/search_tools|run_code|<server>__<tool>/.test(line));
    const [discovery, allTools, codeFirst] = systems.map(shared);
    expect(discovery!.length).toBeGreaterThanOrEqual(4);
    expect(allTools).toEqual(discovery);
    expect(codeFirst).toEqual(discovery);
  });

  it('discovery stays the default: the meta-tools, and a call before describe_tools is refused', async () => {
    e2e.model.push(
      { uses: [{ name: 'github__list_issues', input: { repo: 'acme/app' } }] },
      say('No.'),
    );
    const result = await e2e.agent.executeTask('List the open issues', USER);
    expect(e2e.model.requests[0]?.toolNames).toContain('search_tools');
    expect(e2e.model.requests[0]?.toolNames).not.toContain('github__list_issues');
    expect(result.steps).toMatchObject([{ command: 'github__list_issues', ok: false }]);
    expect(e2e.model.requests[1]?.results[0]?.content).toMatch(/Unknown command/);
  });
});
