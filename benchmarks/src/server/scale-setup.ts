// What every scale benchmark starts from: a cheap tool (the SDK's streamable-HTTP echo server,
// one process on loopback, an app server of every process), a cluster of server processes on
// one PostgreSQL schema, one token per tenant, and the balancer in front.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { latencyStats, round3 } from '@mcp-agent/core/testing';
import {
  startBalancer,
  startCluster,
  type Balancer,
  type Cluster,
  type ServerProcess,
} from '@mcp-agent/server/testing';
import { serverFixtures, type CallOutcome } from '@mcp-agent/test-support';

/** The tool every tenant calls: `echo.echo({message})`. */
export const ECHO = 'echo.echo';

/** A cluster ready for load. */
export interface ScaleSetup {
  readonly cluster: Cluster;
  readonly balancer: Balancer;
  /** One bearer token per tenant. */
  readonly tokens: readonly string[];
  /** Starts one more process with the common flags and adds it to the balancer. */
  addProcess(name: string): Promise<ServerProcess>;
  /** The processes the balancer sends to. */
  readonly live: ServerProcess[];
  close(): Promise<void>;
}

/** The database the benchmarks run on: MCP_AGENT_BENCH_DATABASE_URL or the tests' one. */
export function benchDatabaseUrl(): string {
  const url = process.env.MCP_AGENT_BENCH_DATABASE_URL ?? process.env.MCP_AGENT_TEST_DATABASE_URL;
  if (url === undefined || url === '')
    throw new Error(
      'The scale benchmarks need PostgreSQL: set MCP_AGENT_BENCH_DATABASE_URL (or MCP_AGENT_TEST_DATABASE_URL) to postgres://…; bash scripts/start-postgres.sh starts one.',
    );
  return url;
}

/** Echo server, cluster and balancer, with `processes` processes started. */
export async function setUpScale(options: {
  tenants: number;
  processes: number;
  flags?: readonly string[];
  env?: Readonly<Record<string, string>>;
}): Promise<ScaleSetup> {
  const echo = await startEcho();
  const tokens = Array.from(
    { length: options.tenants },
    (_, i) => `t${i}-${randomBytes(12).toString('hex')}`,
  );
  const cluster = await startCluster({
    fixtures: serverFixtures,
    databaseUrl: benchDatabaseUrl(),
    tokens: Object.fromEntries(tokens.map((token, i) => [token, `tenant-${i}`])),
    script: { tools: [] },
    flags: [...(options.flags ?? []), '--max-sessions', '64'],
    env: { MCP_AGENT_LOG_LEVEL: 'warn', ...options.env },
  });
  const servers = join(cluster.home, 'servers.json');
  writeFileSync(
    servers,
    JSON.stringify({ mcpServers: { echo: { type: 'http', url: `${echo.url}/mcp` } } }),
  );
  const live: ServerProcess[] = [];
  const balancer = await startBalancer([]);
  const addProcess = async (name: string) => {
    const started = await cluster.start(name, ['--servers', servers]);
    live.push(started);
    balancer.setBackends(live.map((p) => p.url));
    return started;
  };
  for (let i = 0; i < options.processes; i += 1) await addProcess(`p${i + 1}`);
  return {
    cluster,
    balancer,
    tokens,
    live,
    addProcess,
    async close() {
      await balancer.close();
      await cluster.close();
      echo.child.kill('SIGKILL');
    },
  };
}

async function startEcho(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [serverFixtures.sdkHttp], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /port (\d+)/.exec(out);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`echo server exited ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

/** Latency and failure figures of a set of calls. */
export function summarise(outcomes: readonly CallOutcome[], seconds: number) {
  const ok = outcomes.filter((o) => o.ok);
  const stats = latencyStats(ok.map((o) => o.ms));
  return {
    calls: outcomes.length,
    failures: outcomes.length - ok.length,
    failureRate: round3((outcomes.length - ok.length) / Math.max(1, outcomes.length)),
    seconds: round3(seconds),
    callsPerSecond: round3(ok.length / seconds),
    p50Ms: stats.p50,
    p99Ms: stats.p99,
  };
}

/** The machine's load while the benchmark ran: it is shared, so the figures depend on it. */
export function machine() {
  const [one, five] = loadavg();
  return { loadAverage1m: round3(one ?? 0), loadAverage5m: round3(five ?? 0) };
}
