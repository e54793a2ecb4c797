import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createContext, type ServerConfig } from '@mcp-agent/core';
import { latencyStats, round3 } from '@mcp-agent/core/testing';
import { openRegistry, type Registry } from '@mcp-agent/registry';
import { Knowledge } from '@mcp-agent/knowledge';
import { toToolSpecs, readCorpus } from '@mcp-agent/knowledge/testing';

// A full collection between measurements, without asking the caller for `--expose-gc`; code
// kept compiled, so that bytecode flushed between two measurements does not read as memory freed.
setFlagsFromString('--expose-gc');
setFlagsFromString('--no-flush-bytecode');
const collect = runInNewContext('gc') as () => void;

const QUERIES = [
  'create an issue in a repository',
  'search the web for news',
  'read a file',
  'send a message to a channel',
];

/**
 * `pnpm bench search-tenants <folder> [1,100,1000]`: many tenants using the same app servers
 * (the folder's tools, one server each): the heap the search holds after every tenant searched
 * once, and each tenant's first-search time (index build or lookup included), per tenant count.
 * The first count of a process also pays for compiling the code: list 1 twice to see it apart.
 */
export async function runSearchTenantsBenchmark(
  folder: string,
  counts: readonly number[] = [1, 100, 1000],
): Promise<Record<string, unknown>> {
  const specs = toToolSpecs(readCorpus(folder));
  const byServer = new Map<string, unknown[]>();
  for (const spec of specs) {
    const raw = { name: spec.name, description: spec.description, inputSchema: spec.inputSchema };
    byServer.set(spec.serverId, [...(byServer.get(spec.serverId) ?? []), raw]);
  }
  const catalogJsonBytes = [...byServer.values()].reduce(
    (sum, tools) => sum + Buffer.byteLength(JSON.stringify(tools)),
    0,
  );
  const appServers: ServerConfig[] = [...byServer.keys()].map((id) => ({
    id,
    transport: 'streamable-http',
    url: `https://${id}.example/mcp`,
    headers: {},
    enabled: true,
  }));
  const runs = [];
  for (const tenants of counts) {
    const home = mkdtempSync(join(tmpdir(), 'mcp-agent-tenants-'));
    const registry = await openRegistry({
      url: join(home, 'bench.db'),
      home,
      env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
      appServers,
    });
    try {
      await seedTenants(registry, byServer, tenants);
      const knowledge = new Knowledge({ registry });
      // A context per request, as a server makes them: nothing a request memoises stays held.
      const contexts = Array.from({ length: tenants }, (_, i) => ({
        get ctx() {
          return createContext({ userId: tenantId(i) });
        },
      }));
      collect();
      const before = heldBytes();
      const first: number[] = [];
      for (const [i, { ctx }] of contexts.entries()) {
        const start = performance.now();
        await knowledge.search(ctx, QUERIES[i % QUERIES.length]!);
        first.push(performance.now() - start);
      }
      collect();
      const held = heldBytes() - before;
      const warm: number[] = [];
      for (const [i, { ctx }] of contexts.entries()) {
        const start = performance.now();
        await knowledge.search(ctx, QUERIES[(i + 1) % QUERIES.length]!);
        warm.push(performance.now() - start);
      }
      runs.push({
        tenants,
        held_mb: round3(held / 2 ** 20),
        held_over_catalog_json: round3(held / catalogJsonBytes),
        first_search_ms: { ...latencyStats(first), total: round3(sum(first)) },
        second_search_ms: latencyStats(warm),
      });
      console.log(JSON.stringify(runs.at(-1)));
    } finally {
      await registry.close();
      rmSync(home, { recursive: true, force: true });
    }
  }
  return {
    benchmark: 'search-tenants',
    folder: basename(resolve(folder)),
    tools: specs.length,
    servers: byServer.size,
    catalog_json_mb: round3(catalogJsonBytes / 2 ** 20),
    runs,
    node: process.version,
  };
}

function tenantId(i: number): string {
  return `tenant-${String(i).padStart(5, '0')}`;
}

// What the JavaScript heap and typed-array buffers hold (SQLite's own memory is not counted).
function heldBytes(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

// The first tenant goes through the registry's own API; the others get copies of its rows,
// which is what a thousand tenants' discoveries of the same app servers would have written.
async function seedTenants(
  registry: Registry,
  byServer: ReadonlyMap<string, unknown[]>,
  tenants: number,
): Promise<void> {
  const first = createContext({ userId: tenantId(0) });
  for (const [server, tools] of byServer) {
    await registry.recordState(first, server, { status: 'ready' });
    await registry.replaceCatalog(first, server, tools);
  }
  const db = registry.db;
  const source = tenantId(0);
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', source)
    .executeTakeFirstOrThrow();
  const connections = await db
    .selectFrom('mcp_connections')
    .selectAll()
    .where('user_id', '=', source)
    .execute();
  const tools = await db
    .selectFrom('tool_catalog')
    .selectAll()
    .where('user_id', '=', source)
    .execute();
  const serverOf = new Map(connections.map((c) => [c.id, c.server_id]));
  await db.transaction().execute(async (trx) => {
    for (let i = 1; i < tenants; i++) {
      const userId = tenantId(i);
      const connectionId = (server: string) => `${userId}:${server}`;
      await trx
        .insertInto('users')
        .values({ ...user, id: userId })
        .execute();
      await trx
        .insertInto('mcp_connections')
        .values(connections.map((c) => ({ ...c, id: connectionId(c.server_id), user_id: userId })))
        .execute();
      const rows = tools.map((t) => ({
        ...t,
        user_id: userId,
        connection_id: connectionId(serverOf.get(t.connection_id)!),
      }));
      // Chunked: SQLite caps the parameters of one statement.
      for (let at = 0; at < rows.length; at += 200)
        await trx
          .insertInto('tool_catalog')
          .values(rows.slice(at, at + 200))
          .execute();
    }
  });
}
