import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createContext } from '@mcp-agent/core';
import { createTestRegistry } from '@mcp-agent/registry/testing';
import { Dispatcher, quotaLink, usageLink } from '@mcp-agent/actions';
import { Knowledge } from '@mcp-agent/knowledge';
import { ConnectionPool } from '@mcp-agent/registry';
import { Agent } from '@mcp-agent/agent';
import { ADAPTERS, say, startModelEndpoint, use, type Adapter } from '@mcp-agent/agent/testing';
import { percentile, round3 } from '@mcp-agent/core/testing';
import { serverFixtures } from '@mcp-agent/test-support';

const TASKS = 200;
const WARMUP = 20;

/**
 * `pnpm bench agent`: the loop's own cost per step with an instant scripted model, on each
 * adapter in turn (the real @anthropic-ai/sdk and the real openai SDK against their scripted
 * servers on loopback). Each task is search → describe → call → answer (4 model requests, 3
 * commands), through the stack's quota and usage links. The same number of raw SDK requests to
 * the same server is timed in the same run; the difference is the loop's overhead (prompting,
 * parsing, budget, metering, trajectory, knowledge, dispatch) — everything but the model.
 */
export async function runAgentBenchmark(): Promise<Record<string, unknown>> {
  const adapters: Record<string, unknown> = {};
  for (const adapter of ADAPTERS) adapters[adapter] = await measure(adapter);
  return {
    benchmark: 'agent',
    node: process.version,
    tasks: TASKS,
    steps_per_task: 4,
    adapters,
  };
}

async function measure(adapter: Adapter): Promise<Record<string, unknown>> {
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
  const endpoint = await startModelEndpoint(adapter);
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
  const model = endpoint.client();
  const agent = new Agent({
    registry,
    pool,
    knowledge: new Knowledge({ registry }),
    dispatcher: new Dispatcher({
      registry,
      pool,
      links: [quotaLink(registry), usageLink(registry)],
    }),
    model,
  });
  const walk = () => [
    use('search_tools', { query: 'list open issues' }),
    use('describe_tools', { tool_ids: ['github.list_issues'] }),
    use('call_tool', { tool_id: 'github.list_issues', arguments: { repo: 'acme/app' } }),
    say('done'),
  ];

  const taskTimes: number[] = [];
  const rawTimes: number[] = [];
  for (let i = 0; i < TASKS + WARMUP; i++) {
    endpoint.push(...walk());
    let start = performance.now();
    const result = await agent.executeTask('List the open issues', 'bench');
    const taskMs = performance.now() - start;
    if (result.status !== 'completed') throw new Error(JSON.stringify(result.error));
    // The same four requests, straight through the SDK: the model's share of the time.
    endpoint.push(...walk());
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
    if (i >= WARMUP) {
      taskTimes.push(taskMs);
      rawTimes.push(rawMs);
    }
  }
  await pool.close();
  await registry.close();
  await endpoint.close();
  rmSync(dir, { recursive: true, force: true });
  const p = (values: number[], q: number) => round3(percentile(values, q));
  const overheadPerStep = taskTimes.map((t, i) => (t - (rawTimes[i] as number)) / 4);
  return {
    task_ms: { p50: p(taskTimes, 50), p99: p(taskTimes, 99) },
    raw_model_requests_ms: { p50: p(rawTimes, 50), p99: p(rawTimes, 99) },
    loop_overhead_per_step_ms: { p50: p(overheadPerStep, 50), p99: p(overheadPerStep, 99) },
  };
}
