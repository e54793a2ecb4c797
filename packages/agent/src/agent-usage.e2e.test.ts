import { describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { ADAPTERS, e2e, makeAgent, say, use, USER, useE2eStack } from './e2e-test-helpers.js';

const alice = createContext({ userId: USER });
const price = { inputPerMTok: 2, outputPerMTok: 10, cacheReadPerMTok: 0.2 };

describe.each(ADAPTERS)('executeTask usage and quotas on %s', (adapter) => {
  useE2eStack(adapter);

  it('records the task: tokens and estimated cost per model, tool calls per server', async () => {
    e2e.model.push(
      use('search_tools', { query: 'list open issues' }),
      use('describe_tools', { tool_ids: ['github.list_issues', 'github.add_label'] }),
      use('call_tool', { tool_id: 'github.list_issues', arguments: { repo: 'acme/app' } }),
      use('call_tool', { tool_id: 'github.add_label', arguments: { issue: 7 } }),
      { text: 'Issue 7 is the crash.', usage: { input: 100, output: 20, cached: 1_000 } },
    );
    const agent = makeAgent({ prices: { scripted: price } });
    const result = await agent.executeTask('Find the crash issue', USER);
    expect(result.status).toBe('completed');
    // 5 requests: 500 input (+1,000 cached on the last), 100 output.
    const cost = (500 * 2 + 100 * 10 + 1_000 * 0.2) / 1_000_000;
    expect(result.usage).toEqual({
      inputTokens: 500,
      outputTokens: 100,
      cacheReadTokens: 1_000,
      cacheWriteTokens: 0,
      models: [
        {
          model: 'scripted',
          requests: 5,
          inputTokens: 500,
          outputTokens: 100,
          cacheReadTokens: 1_000,
          cacheWriteTokens: 0,
          estimatedCostUsd: cost,
        },
      ],
      // The add_label call was refused by its schema before the chain: not a call.
      servers: [{ server: 'github', calls: 1, errors: 0, durationMs: expect.any(Number) }],
      estimatedCostUsd: cost,
    });
    // The database holds the same figures, for the task and in the tenant's totals.
    const stored = await e2e.registry.taskUsage(alice, result.requestId);
    expect(stored.models).toEqual(result.usage.models);
    expect(stored.servers).toEqual([
      { server: 'github', calls: 1, errors: 0, durationMs: expect.any(Number) },
    ]);
    const summary = await e2e.registry.usageSummary(alice, { days: 1 });
    expect(summary.totals).toMatchObject({ requests: 5, toolCalls: 1, estimatedCostUsd: cost });
  });

  it('TEN-11 a task past maxCallsPerHour ends quota_exceeded, saying which limit and when it resets', async () => {
    await e2e.registry.setQuotaLimits(alice, { maxCallsPerHour: 1 });
    e2e.model.push(
      use('describe_tools', { tool_ids: ['github.list_issues'] }),
      use('call_tool', { tool_id: 'github.list_issues', arguments: { repo: 'a/b' } }),
      use('call_tool', { tool_id: 'github.list_issues', arguments: { repo: 'c/d' } }),
      say('never asked'),
    );
    const result = await e2e.agent.executeTask('List issues twice', USER);
    expect(result.status).toBe('quota_exceeded');
    expect(result.answer).toBeNull();
    expect(result.error).toMatchObject({
      code: 'QUOTA_EXCEEDED',
      message: expect.stringMatching(
        /^Quota reached: maxCallsPerHour is 1 \(used 1 this hour\)\. It resets at \S+Z \(in \d+ min\)\.$/,
      ),
      details: { limit: 'maxCallsPerHour', value: 1, used: 1, resetsAt: expect.any(String) },
    });
    // The task stopped at the refusal: what ran is in the result and in the database.
    expect(result.steps.map((s) => [s.command, s.ok])).toEqual([
      ['describe_tools', true],
      ['call_tool', true],
    ]);
    expect(e2e.model.requests).toHaveLength(3);
    expect(e2e.model.remaining()).toBe(1);
    expect(result.usage.servers).toEqual([
      { server: 'github', calls: 1, errors: 0, durationMs: expect.any(Number) },
    ]);
    expect((await e2e.registry.taskUsage(alice, result.requestId)).models[0]?.requests).toBe(3);
  });

  it('TEN-11 a task past maxTokensPerDay is refused before its next model request', async () => {
    await e2e.registry.setQuotaLimits(alice, { maxTokensPerDay: 250 });
    e2e.model.push(
      use('search_tools', { query: 'issues' }),
      use('search_tools', { query: 'labels' }),
      use('search_tools', { query: 'more' }),
      say('never asked'),
    );
    const result = await e2e.agent.executeTask('Search a lot', USER);
    expect(result).toMatchObject({
      status: 'quota_exceeded',
      error: {
        code: 'QUOTA_EXCEEDED',
        details: { limit: 'maxTokensPerDay', value: 250, used: 360 },
      },
    });
    // 120 tokens a request: the third started at 240 < 250, the fourth was refused at 360.
    expect(e2e.model.requests).toHaveLength(3);
    // A second task the same day is refused before it asks the model at all.
    const next = await e2e.agent.executeTask('Again', USER);
    expect(next.status).toBe('quota_exceeded');
    expect(e2e.model.requests).toHaveLength(3);
  });

  it('TEN-11 calls from run_code count too: the script past the limit ends the task', async () => {
    await e2e.registry.setQuotaLimits(alice, { maxCallsPerHour: 1 });
    e2e.model.push(
      use('describe_tools', { tool_ids: ['github.list_issues'] }),
      use('run_code', {
        code: 'await tools.github.list_issues({ repo: "a/b" }); try { await tools.github.list_issues({ repo: "c/d" }); } catch (e) { return String(e); } return "both";',
      }),
      say('never asked'),
    );
    const result = await e2e.agent.executeTask('Two lists from code', USER);
    expect(result).toMatchObject({
      status: 'quota_exceeded',
      error: { code: 'QUOTA_EXCEEDED', details: { limit: 'maxCallsPerHour', value: 1 } },
    });
    expect(e2e.model.requests).toHaveLength(2);
  });
});
