import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext, resolveBudget, type AgentContext } from '@mcp-agent/core';
import { Dispatcher } from '@mcp-agent/actions';
import { MemoryToolCallPool } from '@mcp-agent/actions/testing';
import { Knowledge } from '@mcp-agent/knowledge';
import type { Registry } from '@mcp-agent/registry';
import { createTestRegistry } from '@mcp-agent/registry/testing';
import { MetaToolSession } from '../session/meta-tool-session.js';
import { addSearchServers } from '../session/meta-tools/search-test-helpers.js';
import { MockModelClient, mockText, mockToolUse } from '../testing/index.js';
import { BudgetTracker } from './budget.js';
import { systemPrompt } from './prompts.js';
import { runLoop } from './run-loop.js';
import { Trajectory } from './trajectory.js';

// search_tools as the loop uses it: what the discovery prompt teaches agrees with the tool's
// description, and a scripted model that follows it reads the answers. A real (in-memory SQLite)
// registry and the real search; the session's own tests cover search_tools alone.
let registry: Registry;
let ctx: AgentContext;

beforeEach(async () => {
  registry = await createTestRegistry();
  ctx = createContext({ userId: 'alice' });
  await addSearchServers(registry, ctx);
});
afterEach(async () => {
  await registry.close();
});

function session(budget: BudgetTracker): MetaToolSession {
  return new MetaToolSession({
    knowledge: new Knowledge({ registry }),
    dispatcher: new Dispatcher({ registry, pool: new MemoryToolCallPool({}) }),
    budget,
  });
}

describe('search_tools in the loop', () => {
  it('the discovery prompt teaches what the tool says: split a task into searches, browse on a miss', () => {
    const budget = new BudgetTracker(resolveBudget({}), ctx.clock);
    const listing = session(budget).tools.find((t) => t.name === 'search_tools')!;
    const prompt = systemPrompt('inventory', { serverAgents: false });
    expect(listing.description).toMatch(
      /Split a task of several steps into short searches in one call/,
    );
    expect(prompt).toMatch(
      /split it into short searches, one per thing to do, in one search_tools call/,
    );
    expect(listing.description).toMatch(
      /Browse a server \(servers, no query\) on a miss or a need that belongs to one server\./,
    );
    expect(prompt).toMatch(
      /Browse a server when a search misses .* or when the need clearly belongs to one server: search_tools with \{"servers": \["<id>"\]\} and no query/,
    );
  });

  it('names best_servers in every search answer, and a model that browses one then describes its tool', async () => {
    const model = new MockModelClient([
      mockToolUse([['search_tools', { query: 'schedule a meeting in my calendar' }]]),
      mockToolUse([['search_tools', { servers: ['calendar'] }]]),
      mockToolUse([['describe_tools', { tool_ids: ['calendar.create_event'] }]]),
      mockText('done'),
    ]);
    const budget = new BudgetTracker(resolveBudget({}), ctx.clock);
    const trajectory = new Trajectory();
    await runLoop({ ctx, model, session: session(budget), budget, trajectory }, 'system', 'task');
    expect(trajectory.steps.map((s) => [s.command, s.ok])).toEqual([
      ['search_tools', true],
      ['search_tools', true],
      ['describe_tools', true],
    ]);
    const searched = JSON.stringify(model.requests[1]?.messages.at(-1)?.content);
    expect(searched).toMatch(/best_servers\\":\[\\"calendar\\"/);
    const browsed = JSON.stringify(model.requests[2]?.messages.at(-1)?.content);
    expect(browsed).toContain('calendar.create_event: Create an event in a calendar');
  });

  it('a model that searches several steps in one call reads every answer in one observation', async () => {
    const model = new MockModelClient([
      mockToolUse([['search_tools', { queries: ['list open issues', 'create a calendar event'] }]]),
      mockText('done'),
    ]);
    const budget = new BudgetTracker(resolveBudget({}), ctx.clock);
    const trajectory = new Trajectory();
    await runLoop({ ctx, model, session: session(budget), budget, trajectory }, 'system', 'task');
    expect(trajectory.steps.map((s) => [s.command, s.ok])).toEqual([['search_tools', true]]);
    const seen = JSON.stringify(model.requests[1]?.messages.at(-1)?.content);
    expect(seen).toContain('github.list_issues');
    expect(seen).toContain('calendar.create_event');
  });
});
