import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { latencyStats, round3 } from '@mcp-agent/core/testing';
import { ProcessTransport } from '@mcp-agent/wire';
import {
  Dispatcher,
  loggingLink,
  DispatchMetrics,
  policyLink,
  telemetryLink,
} from '@mcp-agent/actions';
import { everything, openEverythingStack } from './everything-stack.js';
import { registerBenchTracing } from './bench-tracing.js';

const RUNS = 2_000;

/**
 * `pnpm bench dispatch [--tracing]`: a direct SDK call on a held connection against
 * `dispatchTool` (with telemetry, logging, metrics and policy links) on the same
 * server-everything, same arguments, same run. Calls alternate between the two so drift on the
 * machine hits both alike; then the same for a resource read (`readResource`, through the same
 * chain) against the SDK's read. With `--tracing` the OpenTelemetry SDK is registered (every span
 * recorded and exported to a sink), so two runs give tracing's cost per dispatch.
 */
export async function runDispatchBenchmark(
  options: { tracing?: boolean } = {},
): Promise<Record<string, unknown>> {
  const tracing = options.tracing === true ? registerBenchTracing() : undefined;
  const direct = new Client({ name: 'bench', version: '1' });
  await direct.connect(
    new ProcessTransport({ command: process.execPath, args: [everything], env: {} }),
  );

  const stack = await openEverythingStack();
  const { registry, pool, ctx } = stack;
  const metrics = new DispatchMetrics();
  const dispatcher = new Dispatcher({
    registry,
    pool,
    links: [telemetryLink, loggingLink, metrics.link, policyLink({ tools: { '*': 'allow' } })],
  });

  const args = { message: 'hello from the benchmark' };
  for (let i = 0; i < 200; i++) {
    await direct.callTool({ name: 'echo', arguments: args });
    await dispatcher.dispatchTool(ctx, 'everything.echo', args);
  }
  const directTimes: number[] = [];
  const dispatchTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    let start = performance.now();
    await direct.callTool({ name: 'echo', arguments: args });
    directTimes.push(performance.now() - start);
    start = performance.now();
    const response = await dispatcher.dispatchTool(ctx, 'everything.echo', args);
    dispatchTimes.push(performance.now() - start);
    if (!response.ok) throw new Error(response.error.message);
  }
  // Resource reads pass the same chain (RES-01): a direct read against `readResource`.
  const uri = 'demo://resource/static/document/architecture.md';
  for (let i = 0; i < 100; i++) {
    await direct.readResource({ uri });
    await dispatcher.readResource(ctx, 'everything', uri, { caller: 'code' });
  }
  const directReads: number[] = [];
  const dispatchReads: number[] = [];
  for (let i = 0; i < RUNS / 2; i++) {
    let start = performance.now();
    await direct.readResource({ uri });
    directReads.push(performance.now() - start);
    start = performance.now();
    const response = await dispatcher.readResource(ctx, 'everything', uri, { caller: 'code' });
    dispatchReads.push(performance.now() - start);
    if (!response.ok) throw new Error(response.error.message);
  }
  await direct.close();
  await stack.close();
  await tracing?.stop();
  const directStats = latencyStats(directTimes);
  const dispatchStats = latencyStats(dispatchTimes);
  const directReadStats = latencyStats(directReads);
  const dispatchReadStats = latencyStats(dispatchReads);
  return {
    benchmark: 'dispatch',
    server: '@modelcontextprotocol/server-everything (stdio)',
    tool: 'echo',
    node: process.version,
    tracing: tracing === undefined ? 'off (no SDK registered)' : 'on (SDK, every span exported)',
    ...(tracing === undefined ? {} : { spans_exported: tracing.spans() }),
    direct_sdk_held_connection_ms: directStats,
    dispatch_tool_ms: dispatchStats,
    ratio_p50: round3(dispatchStats.p50 / directStats.p50),
    ratio_p99: round3(dispatchStats.p99 / directStats.p99),
    overhead_p50_ms: round3(dispatchStats.p50 - directStats.p50),
    resource: uri,
    direct_sdk_read_resource_ms: directReadStats,
    dispatcher_read_resource_ms: dispatchReadStats,
    read_ratio_p50: round3(dispatchReadStats.p50 / directReadStats.p50),
    read_overhead_p50_ms: round3(dispatchReadStats.p50 - directReadStats.p50),
  };
}
