import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Dispatcher } from '@mcp-agent/actions';
import { createContext } from '@mcp-agent/core';
import { Knowledge } from '@mcp-agent/knowledge';
import { Agent } from './agent.js';
import {
  ADAPTERS,
  addScripted,
  dir,
  e2e,
  say,
  use,
  USER,
  useE2eStack,
} from './e2e-test-helpers.js';
import { serverFixtures } from '@mcp-agent/test-support';

describe.each(ADAPTERS)(
  'executeTask limits on %s: budgets, cancellation, model endpoint errors',
  (adapter) => {
    useE2eStack(adapter);

    it.each([
      ['maxSteps', { maxSteps: 2 }, 3],
      ['maxToolCalls', { maxToolCalls: 1 }, 5],
      ['maxInputTokens', { maxInputTokens: 250 }, 5],
      ['maxOutputTokens', { maxOutputTokens: 30 }, 5],
    ])(
      'ends with budget_exceeded and the partial trajectory when %s is reached',
      async (limit, budget, scripted) => {
        const steps = [
          use('search_tools', { query: 'issues' }),
          use('describe_tools', { tool_ids: ['github.list_issues'] }),
          use('call_tool', { tool_id: 'github.list_issues', arguments: { repo: 'a/b' } }),
          use('call_tool', { tool_id: 'github.list_issues', arguments: { repo: 'c/d' } }),
          say('done'),
        ];
        e2e.model.push(...steps.slice(0, scripted));
        const result = await e2e.agent.executeTask('loop', USER, { budget });
        expect(result.status).toBe('budget_exceeded');
        expect(result.error).toMatchObject({ code: 'BUDGET_EXCEEDED', details: { limit } });
        expect(result.steps.length).toBeGreaterThan(0);
      },
    );

    it('ends with budget_exceeded when the wall time runs out', async () => {
      // The server is started first: the 300 ms are the model's, not a loaded machine's spawn.
      await e2e.pool.warmUp(createContext({ userId: USER }));
      e2e.model.push({ ...use('search_tools', { query: 'issues' }), delayMs: 400 }, say('late'));
      const result = await e2e.agent.executeTask('slow', USER, { budget: { maxWallTimeMs: 300 } });
      expect(result.status).toBe('budget_exceeded');
      expect(result.error?.details).toMatchObject({ limit: 'maxWallTimeMs' });
    });

    it('cancellation mid-call ends the task as cancelled', async () => {
      await addScripted('slow', { tools: [{ name: 'wait', inputSchema: { type: 'object' } }] });
      const hang = join(dir, 'hang.json');
      writeFileSync(hang, '{}');
      await e2e.registry.addServer(createContext({ userId: USER }), {
        id: 'hangs',
        transport: 'stdio',
        command: process.execPath,
        args: [serverFixtures.misbehaving, 'hang-call'],
      });
      e2e.model.push(
        use('describe_tools', { tool_ids: ['hangs.echo'] }),
        use('call_tool', { tool_id: 'hangs.echo', arguments: {} }),
      );
      const controller = new AbortController();
      const pending = e2e.agent.executeTask('hang', USER, {
        signal: controller.signal,
        onEvent: (event) => {
          if (event.type === 'tool-call' && event.command === 'call_tool')
            setTimeout(() => controller.abort(), 100);
        },
      });
      const result = await pending;
      expect(result.status).toBe('cancelled');
      expect(result.error?.code).toBe('CANCELLED');
    });

    it('429 with retry-after and an overloaded 5xx from the model endpoint are retried by the SDK', async () => {
      // Anthropic says "overloaded" with 529; OpenAI-compatible endpoints with 500 or 503.
      const overloaded = adapter === 'anthropic' ? 529 : 500;
      e2e.model.push(
        { error: { status: 429, message: 'slow down', retryAfterSeconds: 0.01 } },
        { error: { status: overloaded, message: 'overloaded', retryAfterSeconds: 0.01 } },
        use('search_tools', { query: 'issues' }),
        say('fine'),
      );
      const result = await e2e.agent.executeTask('hello', USER);
      expect(result).toMatchObject({ status: 'completed', answer: 'fine' });
      // Two model calls of the loop; the first took three requests.
      expect(e2e.model.requests).toHaveLength(4);
      expect(result.steps).toHaveLength(1);
    });

    it('a missing API key is a ConfigError before any work starts', async () => {
      const { registry, pool } = e2e;
      const noKey = new Agent({
        registry,
        pool,
        knowledge: new Knowledge({ registry }),
        dispatcher: new Dispatcher({ registry, pool }),
      });
      const names = ['MCP_AGENT_MODEL', 'ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENAI_BASE_URL'];
      const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
      for (const name of names) delete process.env[name];
      process.env.MCP_AGENT_MODEL = `${adapter}:scripted`;
      try {
        const result = await noKey.executeTask('hello', USER);
        expect(result).toMatchObject({
          status: 'failed',
          error: {
            code: 'CONFIG_INVALID',
            message: expect.stringMatching(
              adapter === 'anthropic' ? /needs ANTHROPIC_API_KEY/ : /needs OPENAI_API_KEY/,
            ),
          },
        });
        expect(e2e.pool.size).toBe(0);
      } finally {
        for (const name of names) {
          if (saved[name] === undefined) delete process.env[name];
          else process.env[name] = saved[name];
        }
      }
    });
  },
);
