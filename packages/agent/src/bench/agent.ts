import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createContext } from '@mcp-agent/core';
import { createTestRegistry } from '@mcp-agent/registry/testing';
import { Dispatcher } from '@mcp-agent/actions';
import { Knowledge } from '@mcp-agent/knowledge';
import { ConnectionPool } from '@mcp-agent/registry';
import { Agent } from '../agent.js';
import { createAnthropicModelClient } from '../model/anthropic-model-client.js';
import { startScriptedAnthropicServer } from '../testing/scripted-anthropic-server.js';
import { percentile, round3 } from '@mcp-agent/core/testing';
import { serverFixtures } from '@mcp-agent/test-support';

const TASKS = 200;

/**
 * `pnpm bench agent`: the loop's own cost per step with an instant scripted model. Each task is
 * search → describe → call → answer (4 model requests, 3 commands). The same number of raw SDK
 * requests to the same server is timed in the same run; the difference is the loop's overhead
 * (prompting, parsing, budget, trajectory, knowledge, dispatch) — everything but the model.
 */
export async function runAgentBenchmark(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-agent-bench-'));
  const script = join(dir, 'tools.json');
  writeFileSync(
    script,
    JSON.stringify({
      tools: [
        {
          name: 'list_issues',
          description: 'List the open issues of a repository',
          inputSchema: {
            type: 'object',
            properties: { repo: { type: 'string' } },
            required: ['repo'],
          },
        },
        {
          name: 'add_label',
          description: 'Add a label to an issue',
          inputSchema: { type: 'object' },
        },
      ],
    }),
  );
  const server = await startScriptedAnthropicServer();
  const registry = await createTestRegistry();
  const pool = new ConnectionPool(registry, { pingIntervalMs: 0 });
  const ctx = createContext({ userId: 'bench' });
  await registry.addServer(ctx, {
    id: 'github',
    transport: 'stdio',
    command: process.execPath,
    args: [serverFixtures.scripted, script],
  });
  await pool.waitForReady(ctx, ['github']);
  const model = createAnthropicModelClient({
    apiKey: 'bench-key',
    baseURL: server.url,
    model: 'scripted',
  });
  const agent = new Agent({
    registry,
    pool,
    knowledge: new Knowledge({ registry }),
    dispatcher: new Dispatcher({ registry, pool }),
    model,
  });
  const use = (name: string, input: unknown) => ({
    content: [{ type: 'tool_use' as const, name, input }],
  });
  const walk = () => [
    use('search_tools', { query: 'list open issues' }),
    use('describe_tools', { tool_ids: ['github.list_issues'] }),
    use('call_tool', { tool_id: 'github.list_issues', arguments: { repo: 'acme/app' } }),
    { content: [{ type: 'text' as const, text: 'done' }] },
  ];

  const taskTimes: number[] = [];
  const rawTimes: number[] = [];
  for (let i = 0; i < TASKS + 20; i++) {
    server.push(...walk());
    let start = performance.now();
    const result = await agent.executeTask('List the open issues', 'bench');
    const taskMs = performance.now() - start;
    if (result.status !== 'completed') throw new Error(JSON.stringify(result.error));
    // The same four requests, straight through the SDK: the model's share of the time.
    server.push(...walk());
    start = performance.now();
    for (let r = 0; r < 4; r++) {
      await model.generate({
        system: 'x',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
        tools: [],
        maxTokens: 100,
      });
    }
    const rawMs = performance.now() - start;
    if (i >= 20) {
      taskTimes.push(taskMs);
      rawTimes.push(rawMs);
    }
  }
  await pool.close();
  await registry.close();
  await server.close();
  const p = (values: number[], q: number) => round3(percentile(values, q));
  const overheadPerStep = taskTimes.map((t, i) => (t - (rawTimes[i] as number)) / 4);
  return {
    benchmark: 'agent',
    node: process.version,
    tasks: TASKS,
    steps_per_task: 4,
    task_ms: { p50: p(taskTimes, 50), p99: p(taskTimes, 99) },
    raw_model_requests_ms: { p50: p(rawTimes, 50), p99: p(rawTimes, 99) },
    loop_overhead_per_step_ms: { p50: p(overheadPerStep, 50), p99: p(overheadPerStep, 99) },
  };
}
