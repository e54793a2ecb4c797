// The server under `pnpm bench soak`, as its own process (run with --expose-gc): the stack and
// serveHttpApi as main.js wires them, on a SQLite home, with the Anthropic SDK against the
// bench's scripted model; plus a second loopback port that answers what only the inside
// knows (heap after GC, gateway sessions, stored events, pooled connections, running tasks).
// Configured by SOAK_SERVER (JSON, see SoakServerConfig); prints {"url","stats"} on stdout.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { createLogger } from '@mcp-agent/core';
import { openAgentStack } from '@mcp-agent/agent';
import { createAnthropicModelClient } from '@mcp-agent/agent/anthropic';
import { IsolatedVmSandbox, MemoryObservationStore } from '@mcp-agent/execution';
import { serveHttpApi, StaticTokenVerifier } from '@mcp-agent/server';

/** What the bench tells its server process. */
export interface SoakServerConfig {
  readonly home: string;
  readonly modelUrl: string;
  /** Bearer token → user. */
  readonly tokens: Readonly<Record<string, string>>;
  readonly sessionIdleMs: number;
  readonly connectionIdleMs: number;
  readonly maxSessionsPerUser: number;
}

/** What the inside port answers. */
export interface InsideStats {
  readonly heapAfterGcMb: number;
  /** V8's heap as reserved (what RSS holds of it), and memory outside it (buffers, native). */
  readonly heapTotalMb: number;
  readonly externalMb: number;
  /** V8's young generation as committed: it grows with the allocation rate up to its cap. */
  readonly newSpaceMb: number;
  readonly rssMb: number;
  readonly sessions: number;
  readonly events: number;
  readonly eventBytes: number;
  readonly connections: number;
  readonly runningTasks: number;
  /** Knowledge's search caches: catalog indexes and remembered tenants (LRU-bounded). */
  readonly indexes: number;
  readonly searchTenants: number;
  /** Results kept for read_result. */
  readonly keptResults: number;
}

const config = JSON.parse(process.env.SOAK_SERVER ?? '{}') as SoakServerConfig;
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run the soak server with node --expose-gc');
const observations = new MemoryObservationStore({ ttlMs: config.connectionIdleMs });
const stack = await openAgentStack({
  home: config.home,
  logger: createLogger({ level: 'warn', destination: process.stderr }),
  sandbox: new IsolatedVmSandbox({ workers: 1 }),
  model: createAnthropicModelClient({
    apiKey: 'soak-key-not-secret',
    baseURL: config.modelUrl,
    model: 'scripted',
    maxRetries: 0,
  }),
  pool: { idleMs: config.connectionIdleMs },
  // Kept results (read_result) expire after the same idle time as everything else.
  dispatcher: { observations },
  knowledge: { idleMs: config.connectionIdleMs },
});
const api = await serveHttpApi({
  stack,
  port: 0,
  verifier: new StaticTokenVerifier(config.tokens),
  // The bench's tenants register the scripted fixture, as an allowlisted command would be.
  trustTenantCommands: true,
  limits: { sessionIdleMs: config.sessionIdleMs, maxSessionsPerUser: config.maxSessionsPerUser },
});
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 1000) / 1000;
const inside = createServer((req, res) => {
  // SOAK_SNAPSHOT_DIR: the bench asks for a heap snapshot before the load and after idle, to
  // compare what the retained heap is made of.
  const snapshot = /^\/snapshot\/(\w+)$/.exec(req.url ?? '');
  if (snapshot !== null && process.env.SOAK_SNAPSHOT_DIR !== undefined) {
    const file = writeHeapSnapshot(
      join(process.env.SOAK_SNAPSHOT_DIR, `${snapshot[1]}.heapsnapshot`),
    );
    res.end(JSON.stringify({ file }));
    return;
  }
  // Twice: the first pass finalises what the second then frees.
  gc();
  gc();
  const gateway = api.gateway.stats();
  const memory = process.memoryUsage();
  const stats: InsideStats = {
    heapAfterGcMb: mb(memory.heapUsed),
    heapTotalMb: mb(memory.heapTotal),
    externalMb: mb(memory.external),
    newSpaceMb: mb(
      getHeapSpaceStatistics()
        .filter((space) => space.space_name.startsWith('new_'))
        .reduce((sum, space) => sum + space.space_size, 0),
    ),
    rssMb: mb(memory.rss),
    sessions: gateway.sessions,
    events: gateway.events,
    eventBytes: gateway.eventBytes,
    connections: stack.pool.size,
    runningTasks: api.tasks.running,
    indexes: stack.knowledge.cacheSizes().indexes,
    searchTenants: stack.knowledge.cacheSizes().tenants,
    keptResults: observations.stats().observations,
  };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(stats));
});
await new Promise<void>((resolve) => inside.listen(0, '127.0.0.1', resolve));
process.stdout.write(
  `${JSON.stringify({ url: api.url, stats: `http://127.0.0.1:${(inside.address() as AddressInfo).port}` })}\n`,
);
process.once('SIGTERM', () => {
  void (async () => {
    await api.drain(5_000);
    inside.close();
    await api.close();
    await stack.close();
    process.exit(0);
  })();
});
