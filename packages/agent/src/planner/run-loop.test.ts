import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BudgetExceededError,
  createContext,
  QuotaExceededError,
  resolveBudget,
  type AgentContext,
  type StepEvent,
} from '@mcp-agent/core';
import { Dispatcher, type DispatchLink } from '@mcp-agent/actions';
import { MemoryToolCallPool } from '@mcp-agent/actions/testing';
import { Knowledge } from '@mcp-agent/knowledge';
import type { Registry } from '@mcp-agent/registry';
import { createTestRegistry } from '@mcp-agent/registry/testing';
import { MetaToolSession } from '../session/meta-tool-session.js';
import { MockModelClient, mockText, mockToolUse } from '../testing/index.js';
import { BudgetTracker } from './budget.js';
import { runLoop } from './run-loop.js';
import { Trajectory } from './trajectory.js';

// The loop alone: a scripted model in memory, an in-memory registry and a pool double. No HTTP
// server, MCP server or sandbox worker is started.
let registry: Registry;
let pool: MemoryToolCallPool;
let ctx: AgentContext;

const issueTools = [
  {
    name: 'list_issues',
    description: 'List the open issues of a repository',
    inputSchema: { type: 'object', properties: { repo: { type: 'string' } }, required: ['repo'] },
  },
];

beforeEach(async () => {
  registry = await createTestRegistry();
  ctx = createContext({ userId: 'alice' });
  await registry.addServer(ctx, {
    id: 'github',
    transport: 'streamable-http',
    url: 'https://github.example/mcp',
  });
  await registry.replaceCatalog(ctx, 'github', issueTools);
  await registry.recordState(ctx, 'github', { status: 'ready' });
  pool = new MemoryToolCallPool({
    'github.list_issues': { content: [{ type: 'text', text: '[{"number":7}]' }] },
  });
});
afterEach(async () => {
  await registry.close();
});

function loop(
  model: MockModelClient,
  budget = resolveBudget({}),
  onEvent?: (e: StepEvent) => void,
  links: readonly DispatchLink[] = [],
) {
  const tracker = new BudgetTracker(budget, ctx.clock);
  const session = new MetaToolSession({
    knowledge: new Knowledge({ registry }),
    dispatcher: new Dispatcher({ registry, pool, links }),
    budget: tracker,
  });
  const trajectory = new Trajectory();
  const run = runLoop(
    { ctx, model, session, budget: tracker, trajectory, ...(onEvent ? { onEvent } : {}) },
    'system prompt',
    'How many open issues?',
  );
  return { run, trajectory, session, tracker };
}

describe('runLoop on MockModelClient', () => {
  it('answers in words at once, offering the model only the meta-tools', async () => {
    const model = new MockModelClient([mockText('Nothing to do.')]);
    const { run, trajectory } = loop(model);
    expect(await run).toBe('Nothing to do.');
    expect(model.requests[0]?.tools.map((t) => t.name)).toEqual([
      'search_tools',
      'describe_tools',
      'call_tool',
      'run_code',
      'read_result',
      'read_resource',
    ]);
    expect(model.requests[0]?.system).toBe('system prompt');
    expect(trajectory.steps).toEqual([]);
  });

  it('walks search → describe → call through the session and feeds each observation back', async () => {
    const model = new MockModelClient([
      mockToolUse([['search_tools', { query: 'open issues' }]]),
      mockToolUse([['describe_tools', { tool_ids: ['github.list_issues'] }]]),
      mockToolUse([['call_tool', { tool_id: 'github.list_issues', arguments: { repo: 'a/b' } }]]),
      mockText('One open issue.'),
    ]);
    const { run, trajectory, session } = loop(model);
    expect(await run).toBe('One open issue.');
    expect(trajectory.steps.map((s) => [s.command, s.ok])).toEqual([
      ['search_tools', true],
      ['describe_tools', true],
      ['call_tool', true],
    ]);
    expect(pool.calls).toEqual([
      { userId: 'alice', serverId: 'github', toolName: 'list_issues', arguments: { repo: 'a/b' } },
    ]);
    expect(session.toolsUsed).toEqual(['github.list_issues']);
    // The model saw the call's result as the tool_result of its own tool_use.
    const last = model.requests[3]?.messages.at(-1);
    expect(last?.role).toBe('user');
    expect(JSON.stringify(last?.content)).toContain('number');
  });

  it('refuses a call before describe as an error observation, and the model recovers', async () => {
    const model = new MockModelClient([
      mockToolUse([['call_tool', { tool_id: 'github.list_issues', arguments: { repo: 'a/b' } }]]),
      (request) => {
        const result = request.messages.at(-1)?.content[0];
        return result?.type === 'tool_result' &&
          result.is_error === true &&
          result.content.includes('Describe github.list_issues with describe_tools')
          ? mockText('I need to describe it first.')
          : mockText('the refusal was not seen');
      },
    ]);
    const { run } = loop(model);
    expect(await run).toBe('I need to describe it first.');
    expect(pool.calls).toEqual([]);
  });

  it('turns unknown commands and malformed input into errors the model reads', async () => {
    const model = new MockModelClient([
      mockToolUse([
        ['delete_everything', {}],
        ['search_tools', { query: 42 }],
      ]),
      mockText('done'),
    ]);
    const { run, trajectory } = loop(model);
    await run;
    expect(trajectory.steps.map((s) => s.ok)).toEqual([false, false]);
    expect(JSON.stringify(trajectory.steps[0]?.observation)).toMatch(
      /Unknown command .*search_tools/,
    );
    expect(JSON.stringify(trajectory.steps[1]?.observation)).toMatch(
      /Invalid input for search_tools: query/,
    );
  });

  it('runs several tool uses of one turn in order, charging the tokens once', async () => {
    const model = new MockModelClient([
      mockToolUse(
        [
          ['search_tools', { query: 'issues' }],
          ['describe_tools', { tool_ids: ['github.list_issues'] }],
        ],
        { inputTokens: 100, outputTokens: 20 },
      ),
      mockText('ok', { inputTokens: 150, outputTokens: 5 }),
    ]);
    const { run, trajectory, tracker } = loop(model);
    await run;
    expect(trajectory.steps.map((s) => [s.command, s.inputTokens, s.outputTokens])).toEqual([
      ['search_tools', 100, 20],
      ['describe_tools', 0, 0],
    ]);
    expect(tracker.usage).toMatchObject({ inputTokens: 250, outputTokens: 25 });
  });

  it('ends by throwing at the step limit, and on cancellation', async () => {
    const endless = new MockModelClient(
      Array.from({ length: 5 }, () => mockToolUse([['search_tools', { query: 'issues' }]])),
    );
    await expect(loop(endless, resolveBudget({ maxSteps: 2 })).run).rejects.toBeInstanceOf(
      BudgetExceededError,
    );
    const controller = new AbortController();
    ctx = createContext({ userId: 'alice', signal: controller.signal });
    const model = new MockModelClient([
      () => {
        controller.abort();
        return mockToolUse([['search_tools', { query: 'issues' }]]);
      },
    ]);
    await expect(loop(model).run).rejects.toThrow(/abort/i);
  });

  it('feeds the model the JSON the observation carries, the same text as writing it out', async () => {
    const model = new MockModelClient([
      mockToolUse([['describe_tools', { tool_ids: ['github.list_issues'] }]]),
      mockToolUse([['call_tool', { tool_id: 'github.list_issues', arguments: { repo: 'a/b' } }]]),
      mockText('done'),
    ]);
    const { run, trajectory } = loop(model);
    await run;
    const result = model.requests[2]?.messages.at(-1)?.content[0];
    expect(result?.type === 'tool_result' && result.content).toBe(
      JSON.stringify(trajectory.steps[1]?.observation),
    );
  });

  it('writes a result out as JSON once on its way from the server to the model', async () => {
    const issues = {
      issues: Array.from({ length: 50 }, (_, n) => ({ number: n, title: `#${n}` })),
    };
    pool = new MemoryToolCallPool({
      'github.list_issues': { content: [], structuredContent: issues },
    });
    const model = new MockModelClient([
      mockToolUse([['describe_tools', { tool_ids: ['github.list_issues'] }]]),
      mockToolUse([['call_tool', { tool_id: 'github.list_issues', arguments: { repo: 'a/b' } }]]),
      mockText('done'),
    ]);
    // Every write of the result, alone or inside what carries it (the session's answer).
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const { run } = loop(model);
      await run;
      const writes = stringify.mock.calls.filter(
        ([value]) =>
          value === issues ||
          (value !== null && typeof value === 'object' && Object.values(value).includes(issues)),
      );
      expect(writes).toHaveLength(1);
    } finally {
      stringify.mockRestore();
    }
    const result = model.requests[2]?.messages.at(-1)?.content[0];
    expect(result?.type === 'tool_result' && JSON.parse(result.content)).toEqual({
      tool_id: 'github.list_issues',
      result: issues,
    });
  });

  it('TEN-11 a quota reaches the loop as a value and ends the task there; the session only answers it', async () => {
    const quota: DispatchLink = () => {
      throw new QuotaExceededError('Quota reached: maxCallsPerHour is 1.', {
        details: { limit: 'maxCallsPerHour', value: 1 },
      });
    };
    const model = new MockModelClient([
      mockToolUse([['describe_tools', { tool_ids: ['github.list_issues'] }]]),
      mockToolUse([['call_tool', { tool_id: 'github.list_issues', arguments: { repo: 'a/b' } }]]),
      mockText('the quota was not decided'),
    ]);
    const { run, trajectory, session } = loop(model, resolveBudget({}), undefined, [quota]);
    const ended = await run.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(ended).toBeInstanceOf(QuotaExceededError);
    expect(ended).toMatchObject({ details: { limit: 'maxCallsPerHour', value: 1 } });
    expect(model.requests).toHaveLength(2);
    expect(trajectory.steps.map((s) => s.command)).toEqual(['describe_tools']);
    // The session itself decides nothing: it answers the quota, as it does a gateway's client.
    const answer = await session.run(
      'call_tool',
      { tool_id: 'github.list_issues', arguments: { repo: 'a/b' } },
      { ctx },
    );
    expect(answer).toMatchObject({
      ok: false,
      value: { error: { code: 'QUOTA_EXCEEDED' } },
      error: { code: 'QUOTA_EXCEEDED', details: { limit: 'maxCallsPerHour', value: 1 } },
    });
    expect(pool.calls).toEqual([]);
  });

  it('emits every step in order, and a listener that throws does not stop the loop', async () => {
    const seen: string[] = [];
    const model = new MockModelClient([
      mockToolUse([['search_tools', { query: 'issues' }]]),
      mockText('done'),
    ]);
    const { run } = loop(model, resolveBudget({}), (event) => {
      seen.push(event.type);
      throw new Error('listener bug');
    });
    expect(await run).toBe('done');
    expect(seen).toEqual(['step-start', 'tool-call', 'observation', 'step-start', 'answer']);
  });
});
