import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { Dispatcher } from '@mcp-agent/actions';
import { MemoryToolCallPool } from '@mcp-agent/actions/testing';
import { Knowledge } from '@mcp-agent/knowledge';
import {
  openRegistry,
  type ConnectionState,
  type OpenRegistryOptions,
  type Registry,
} from '@mcp-agent/registry';
import { Agent } from './agent.js';
import { MetaToolSession } from './session/meta-tool-session.js';
import { MockModelClient, mockText, mockToolUse } from './testing/index.js';

type QueryPlugin = NonNullable<OpenRegistryOptions['plugins']>[number];
type QueryNode = Parameters<QueryPlugin['transformQuery']>[0]['node'];

/** Counts the SELECTs the registry runs, by table. */
class ReadCounter implements QueryPlugin {
  reads: string[] = [];
  transformQuery({ node }: { node: QueryNode }): QueryNode {
    if (node.kind === 'SelectQueryNode') {
      // The first table of FROM, aliased or not.
      type Table = { table?: { identifier: { name: string } }; node?: Table };
      const from = (node as unknown as { from?: { froms: Table[] } }).from?.froms[0];
      this.reads.push(
        from?.table?.identifier.name ?? from?.node?.table?.identifier.name ?? 'other',
      );
    }
    return node;
  }
  async transformResult<T>({ result }: { result: T }): Promise<T> {
    return result;
  }
}

const SERVERS = 10;
let counter: ReadCounter;
let registry: Registry;

beforeEach(async () => {
  counter = new ReadCounter();
  registry = await openRegistry({
    url: ':memory:',
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
    plugins: [counter],
  });
  const ctx = createContext({ userId: 'alice' });
  for (let i = 0; i < SERVERS; i++) {
    const id = `server${i}`;
    await registry.addServer(ctx, {
      id,
      transport: 'streamable-http',
      url: `https://${id}.example/mcp`,
    });
    await registry.replaceCatalog(ctx, id, [
      {
        name: `tool_${i}`,
        description: `Does thing number ${i} for issues`,
        inputSchema: { type: 'object' },
      },
    ]);
    await registry.recordState(ctx, id, { status: 'ready' });
  }
});
afterEach(async () => {
  await registry.close();
});

// A pool double whose servers are all ready: readiness comes back without a database read.
const readyPool = {
  async waitForReady(_ctx: unknown, ids: readonly string[]): Promise<ConnectionState[]> {
    return ids.map((serverId, i) => ({
      userId: 'alice',
      serverId,
      status: 'ready',
      attempts: 1,
      lastError: null,
      toolCount: 1,
      catalogVersion: 1,
      discoveredAt: i,
      breaker: 'closed',
    }));
  },
};

describe('registry reads per request', () => {
  it(`one executeTask over ${SERVERS} servers makes one availability pass`, async () => {
    const knowledge = new Knowledge({ registry });
    const pool = new MemoryToolCallPool({
      'server3.tool_3': { content: [{ type: 'text', text: 'ok' }] },
    });
    const agent = new Agent({
      registry,
      pool: readyPool,
      knowledge,
      dispatcher: new Dispatcher({ registry, pool }),
      model: new MockModelClient([
        mockToolUse([['search_tools', { query: 'thing number 3' }]]),
        mockToolUse([['describe_tools', { tool_ids: ['server3.tool_3'] }]]),
        mockToolUse([['call_tool', { tool_id: 'server3.tool_3', arguments: {} }]]),
        mockText('done'),
      ]),
    });
    counter.reads = [];
    const result = await agent.executeTask('do thing 3', 'alice');
    expect(result.status).toBe('completed');
    const passes = counter.reads.filter((table) => table === 'mcp_connections').length;
    expect(passes).toBe(1);
    // The pass (servers, authorisations), the inventory's and the search index's catalogs, the
    // deep view's catalog, the dispatcher's tool, and the tenant's own quotas (read before the
    // first model request, then cached): a constant, whatever the number of servers.
    expect(counter.reads).toHaveLength(8);
    expect(counter.reads.filter((table) => table === 'user_quotas')).toHaveLength(1);
    console.info(
      `registry reads for one executeTask over ${SERVERS} servers: ${counter.reads.join(', ')}`,
    );
  });

  it('one search_tools from a gateway client makes one availability pass', async () => {
    const session = new MetaToolSession({
      knowledge: new Knowledge({ registry }),
      dispatcher: new Dispatcher({ registry, pool: new MemoryToolCallPool({}) }),
    });
    // The first search builds the index; the one counted is a later request's.
    await session.run(
      'search_tools',
      { query: 'issues' },
      { ctx: createContext({ userId: 'alice' }) },
    );
    counter.reads = [];
    const found = await session.run(
      'search_tools',
      { query: 'thing number 7' },
      { ctx: createContext({ userId: 'alice' }) },
    );
    expect(JSON.stringify(found.value)).toContain('server7.tool_7');
    expect(counter.reads.filter((table) => table === 'mcp_connections')).toHaveLength(1);
    expect(counter.reads).toHaveLength(3);
  });
});
