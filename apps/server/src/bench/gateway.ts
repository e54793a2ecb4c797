import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { latencyStats, round3 } from '@mcp-agent/core/testing';
import { callSteps } from './call-steps.js';
import {
  directPath,
  httpGatewayPath,
  mcpHubPath,
  stdioGatewayPath,
  supergatewayPath,
  type GatewayPath,
  type PathOptions,
} from './gateway-paths.js';

const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * `pnpm bench gateway [--calls 2000] [--profile-calls 3000]`: an SDK client calling
 * server-everything's `echo` directly over stdio, through `mcp-agent serve --stdio`
 * (`call_tool` after `describe_tools`), through `mcp-agent-server`'s `/mcp` (streamable HTTP),
 * and through the bare proxies mcp-hub (SSE) and supergateway (streamable HTTP, stateful), all
 * in one run: each round calls every path once, in an order that rotates, so drift hits all
 * alike. Then each gateway runs again under `--cpu-prof` for calls alone, and the profile
 * gives each step's share of a call (see call-steps.ts); profiling slows a process, so those
 * runs are not in the latencies.
 */
export async function runGatewayBenchmark(
  options: { calls?: number; profileCalls?: number } = {},
): Promise<Record<string, unknown>> {
  const calls = options.calls ?? 2_000;
  const paths: GatewayPath[] = [];
  try {
    for (const open of [
      directPath,
      stdioGatewayPath,
      httpGatewayPath,
      mcpHubPath,
      supergatewayPath,
    ])
      paths.push(await open());
    const times = new Map(paths.map((path) => [path.name, [] as number[]]));
    for (let i = 0; i < 200; i += 1) for (const path of paths) await path.call(`warm ${i}`);
    for (let i = 0; i < calls; i += 1) {
      for (let k = 0; k < paths.length; k += 1) {
        const path = paths[(i + k) % paths.length] as GatewayPath;
        const started = performance.now();
        await path.call(`hello from the benchmark ${i}`);
        times.get(path.name)?.push(performance.now() - started);
      }
    }
    const stats = Object.fromEntries(
      [...times].map(([name, values]) => [name, latencyStats(values)]),
    );
    const direct = stats.direct_stdio as { p50: number; p99: number };
    const versus = Object.fromEntries(
      Object.entries(stats)
        .filter(([name]) => name !== 'direct_stdio')
        .map(([name, s]) => [
          name,
          {
            ratio_p50: round3(s.p50 / direct.p50),
            ratio_p99: round3(s.p99 / direct.p99),
            overhead_p50_ms: round3(s.p50 - direct.p50),
          },
        ]),
    );
    const bestProxy = Math.min(stats.mcp_hub?.p50 ?? Infinity, stats.supergateway?.p50 ?? Infinity);
    const http = stats.mcp_agent_http_gateway?.p50 ?? Infinity;
    const stdio = stats.mcp_agent_stdio_gateway?.p50 ?? Infinity;
    for (const path of paths.splice(0)) await path.close();
    const profileCalls = options.profileCalls ?? 3_000;
    return {
      benchmark: 'gateway',
      server: '@modelcontextprotocol/server-everything (stdio)',
      tool: 'echo',
      node: process.version,
      rounds: calls,
      ms: stats,
      versus_direct: versus,
      targets: {
        stdio_gateway_overhead_p50_ms: round3(stdio - direct.p50),
        stdio_within_0_3_ms: stdio - direct.p50 <= 0.3,
        http_gateway_p50_vs_best_proxy: round3(http / bestProxy),
        http_at_or_below_best_proxy: http <= bestProxy,
      },
      steps: {
        stdio_gateway: await profiled(stdioGatewayPath, profileCalls),
        http_gateway: await profiled(httpGatewayPath, profileCalls),
      },
    };
  } finally {
    for (const path of paths) await path.close().catch(() => undefined);
  }
}

// A gateway under `--cpu-prof`: warmed, then `calls` calls in a window the profile is cut to.
async function profiled(open: (options: PathOptions) => Promise<GatewayPath>, calls: number) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-bench-prof-'));
  try {
    const path = await open({
      nodeFlags: ['--cpu-prof', '--cpu-prof-interval=200', `--cpu-prof-dir=${dir}`],
    });
    const pid = path.pid;
    for (let i = 0; i < 300; i += 1) await path.call(`warm ${i}`);
    const fromUs = monotonicUs();
    const started = performance.now();
    for (let i = 0; i < calls; i += 1) await path.call(`profiled ${i}`);
    const wallMs = performance.now() - started;
    const toUs = monotonicUs();
    await path.close();
    const file = readdirSync(dir).find((name) => name.includes(`.${pid}.`));
    if (file === undefined) return { error: `no profile written by ${pid}` };
    return {
      calls,
      wall_ms_per_call_profiled: round3(wallMs / calls),
      ...callSteps(join(dir, file), { fromUs, toUs, calls }),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
