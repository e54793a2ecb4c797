import { performance } from 'node:perf_hooks';
import { latencyStats, round3 } from '@mcp-agent/core/testing';
import { IsolatedVmSandbox, type SandboxRunOptions } from '@mcp-agent/execution';
import { codeToolCaller, Dispatcher } from '@mcp-agent/actions';
import { openEverythingStack } from './everything-stack.js';

/**
 * `pnpm bench sandbox`: cold and warm runs of an empty script, and a script making 100 tool
 * calls to server-everything against the same 100 calls made directly by the dispatcher, in one
 * run; the marginal cost of a call from code is (script − direct) / 100. Then how far past a
 * 300 ms deadline each runaway case of the catalogue ends ({@link deadlineOvershoot}), the
 * figure the unit tests leave to this benchmark.
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
  const tools = [{ server: 'everything', name: 'echo' }];
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
  const overshoot = await deadlineOvershoot(sandbox);
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
    deadline_ms: DEADLINE_MS,
    deadline_overshoot_ms: overshoot,
  };
}

const DEADLINE_MS = 300;

// Each runaway case of the catalogue (section A) that a deadline must end, by its ID. (SBX-10's
// looping prepareStackTrace is never called unless code reads `stack`: it fails at once.)
const RUNAWAY_CASES: Record<string, { code: string; options?: SandboxRunOptions }> = {
  'SBX-01 while(true)': { code: 'while (true) {}' },
  'SBX-02 microtask flood': {
    code: 'function f() { Promise.resolve().then(f); } f(); await new Promise(() => {});',
  },
  'SBX-03 async loop around host calls': {
    code: 'for (;;) await tools.util.echo({});',
    options: {
      tools: [{ server: 'util', name: 'echo' }],
      callTool: async () => ({ ok: true, value: null }),
      limits: { maxToolCalls: 1_000_000 },
    },
  },
  'SBX-04 promise that never settles': { code: 'await new Promise(() => {});' },
  'SBX-09 looping message getter': {
    code: 'const e = new Error("x"); Object.defineProperty(e, "message", { get() { for (;;) {} } }); throw e;',
  },
  'SBX-09 looping result getter': { code: 'return { get x() { for (;;) {} } };' },
  'SBX-13 catastrophic backtracking': { code: 'return /(a+)+$/.test("a".repeat(40) + "!")' },
  'SBX-27 host call pending at the deadline': {
    code: 'await tools.util.echo({});',
    options: {
      tools: [{ server: 'util', name: 'echo' }],
      callTool: () => new Promise(() => undefined),
    },
  },
};

/**
 * For each runaway case, how many ms past a 300 ms deadline the caller got its result (p50,
 * p99, max over 10 runs): the exact figure behind the tests' "never hangs" margin.
 */
async function deadlineOvershoot(
  sandbox: IsolatedVmSandbox,
): Promise<Record<string, { p50: number; p99: number; max: number; n: number }>> {
  const figures: Record<string, { p50: number; p99: number; max: number; n: number }> = {};
  for (const [name, { code, options }] of Object.entries(RUNAWAY_CASES)) {
    const overshoot: number[] = [];
    for (let i = 0; i < 10; i++) {
      const start = performance.now();
      const result = await sandbox.run(code, {
        ...options,
        limits: { ...options?.limits, deadlineMs: DEADLINE_MS },
      });
      overshoot.push(performance.now() - start - DEADLINE_MS);
      if (result.ok) throw new Error(`${name} did not fail`);
    }
    figures[name] = { ...latencyStats(overshoot), max: round3(Math.max(...overshoot)) };
  }
  return figures;
}
