import { performance } from 'node:perf_hooks';
import { latencyStats, round3 } from '@mcp-agent/core/testing';
import { IsolatedVmSandbox } from '@mcp-agent/execution';
import { codeToolCaller } from '../code-tool-caller.js';
import { Dispatcher } from '../dispatcher.js';
import { openEverythingStack } from './everything-stack.js';

/**
 * `pnpm bench sandbox`: cold and warm runs of an empty script, and a script making 100 tool
 * calls to server-everything against the same 100 calls made directly by the dispatcher, in one
 * run; the marginal cost of a call from code is (script − direct) / 100.
 */
export async function runSandboxBenchmark(): Promise<Record<string, unknown>> {
  const coldStart = performance.now();
  const sandbox = new IsolatedVmSandbox({ workers: 2 });
  const cold = await sandbox.run('return null');
  const coldMs = performance.now() - coldStart;
  if (!cold.ok) throw new Error(cold.error.message);
  const warm: number[] = [];
  for (let i = 0; i < 300; i++) {
    const start = performance.now();
    await sandbox.run('return null');
    warm.push(performance.now() - start);
  }

  const stack = await openEverythingStack();
  const { registry, pool, ctx } = stack;
  const dispatcher = new Dispatcher({ registry, pool });
  const callTool = codeToolCaller(dispatcher, ctx);
  const tools = [{ provider: 'everything', name: 'echo' }];
  const script =
    'for (let i = 0; i < 100; i++) await tools.everything.echo({ message: "m" + i }); return null;';
  const direct: number[] = [];
  const scripted: number[] = [];
  for (let round = 0; round < 25; round++) {
    let start = performance.now();
    for (let i = 0; i < 100; i++) {
      const response = await dispatcher.dispatchTool(ctx, 'everything.echo', { message: `m${i}` });
      if (!response.ok) throw new Error(response.error.message);
    }
    direct.push(performance.now() - start);
    start = performance.now();
    const result = await sandbox.run(script, { tools, callTool, limits: { maxToolCalls: 100 } });
    scripted.push(performance.now() - start);
    if (!result.ok) throw new Error(result.error.message);
  }
  await sandbox.dispose();
  await stack.close();
  const directStats = latencyStats(direct);
  const scriptStats = latencyStats(scripted);
  const warmStats = latencyStats(warm);
  return {
    benchmark: 'sandbox',
    node: process.version,
    cold_empty_run_ms: round3(coldMs),
    warm_empty_run_ms: warmStats,
    hundred_calls_direct_dispatch_ms: directStats,
    hundred_calls_from_sandbox_ms: scriptStats,
    marginal_cost_per_call_ms: round3((scriptStats.p50 - directStats.p50 - warmStats.p50) / 100),
  };
}
