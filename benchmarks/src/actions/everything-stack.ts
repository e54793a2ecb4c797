import { fileURLToPath } from 'node:url';
import { createContext, type AgentContext } from '@mcp-agent/core';
import { ConnectionPool, type Registry } from '@mcp-agent/registry';
import { createTestRegistry } from '@mcp-agent/registry/testing';

/** The real server-everything the benchmarks measure against, launched over stdio. */
export const everything = fileURLToPath(
  new URL(
    '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
    import.meta.url,
  ),
);

/** A registry and pool with server-everything added for one user and ready. */
export interface EverythingStack {
  readonly registry: Registry;
  readonly pool: ConnectionPool;
  readonly ctx: AgentContext;
  close(): Promise<void>;
}

export async function openEverythingStack(): Promise<EverythingStack> {
  const registry = await createTestRegistry();
  const pool = new ConnectionPool(registry, { pingIntervalMs: 0 });
  const ctx = createContext({ userId: 'bench' });
  await registry.addServer(ctx, {
    id: 'everything',
    transport: 'stdio',
    command: process.execPath,
    args: [everything],
  });
  await pool.waitForReady(ctx, ['everything']);
  return {
    registry,
    pool,
    ctx,
    close: async () => {
      await pool.close();
      await registry.close();
    },
  };
}
