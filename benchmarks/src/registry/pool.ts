import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { createContext } from '@mcp-agent/core';
import { latencyStats, round3, type LatencyStats } from '@mcp-agent/core/testing';
import { ConnectionPool } from '@mcp-agent/registry';
import { createTestRegistry } from '@mcp-agent/registry/testing';
import { ProcessTransport } from '@mcp-agent/wire';

const everything = fileURLToPath(
  new URL(
    '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
    import.meta.url,
  ),
);

async function measure(n: number, run: (i: number) => Promise<unknown>): Promise<LatencyStats> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await run(i);
    times.push(performance.now() - start);
  }
  return latencyStats(times);
}

async function compare(
  label: string,
  transport: () => Transport,
  serverConfig: object,
  naiveRuns: number,
): Promise<Record<string, unknown>> {
  const call = (client: Client, i: number) =>
    client.callTool({ name: 'echo', arguments: { message: `m${i}` } });
  const naive = await measure(naiveRuns, async (i) => {
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(transport());
    await call(client, i);
    await client.close();
  });
  const held = new Client({ name: 'bench', version: '1' });
  await held.connect(transport());
  for (let i = 0; i < 50; i++) await call(held, i);
  const direct = await measure(1_000, (i) => call(held, i));
  await held.close();

  const registry = await createTestRegistry();
  const pool = new ConnectionPool(registry, { pingIntervalMs: 0 });
  const ctx = createContext({ userId: 'bench' });
  await registry.addServer(ctx, { id: 'everything', ...serverConfig });
  await pool.waitForReady(ctx, ['everything']);
  for (let i = 0; i < 50; i++) await pool.callTool(ctx, 'everything', 'echo', { message: `w${i}` });
  const pooled = await measure(1_000, (i) =>
    pool.callTool(ctx, 'everything', 'echo', { message: `m${i}` }),
  );
  await pool.close();
  await registry.close();
  const result = {
    connect_call_close_per_query_ms: naive,
    direct_sdk_held_connection_ms: direct,
    pool_ms: pooled,
    ratio_naive_over_pool_p50: round3(naive.p50 / pooled.p50),
    ratio_pool_over_direct_p50: round3(pooled.p50 / direct.p50),
    ratio_pool_over_direct_p99: round3(pooled.p99 / direct.p99),
  };
  console.log(`${label.padEnd(16)} ${JSON.stringify(result)}`);
  return result;
}

/** `pnpm bench pool`: per-query connections vs a held SDK client vs the pool, stdio and HTTP. */
export async function runPoolBenchmark(): Promise<Record<string, unknown>> {
  const stdio = await compare(
    'stdio',
    () => new ProcessTransport({ command: process.execPath, args: [everything], env: {} }),
    { transport: 'stdio', command: process.execPath, args: [everything] },
    30,
  );
  const port = 39_000 + Math.floor(Math.random() * 1_000);
  const server = spawn(process.execPath, [everything, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve) =>
    server.stderr.on('data', (d: Buffer) => d.toString().includes('listening') && resolve()),
  );
  const url = `http://127.0.0.1:${port}/mcp`;
  try {
    const http = await compare(
      'streamable-http',
      () => new StreamableHTTPClientTransport(new URL(url)),
      { transport: 'streamable-http', url },
      100,
    );
    return {
      benchmark: 'pool',
      server: '@modelcontextprotocol/server-everything',
      tool: 'echo',
      node: process.version,
      stdio,
      streamable_http: http,
    };
  } finally {
    server.kill('SIGKILL');
  }
}
