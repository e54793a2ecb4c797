import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext, jsonBytes, observeMcpTraffic, type McpExchange } from '@mcp-agent/core';
import { createTestRegistry } from '../../testing/index.js';
import type { Registry } from '../../registry.js';
import { ConnectionPool } from './connection-pool.js';
import { servers } from './pool-test-helpers.js';

let registry: Registry;
let pool: ConnectionPool;
const seen: McpExchange[] = [];

beforeEach(async () => {
  registry = await createTestRegistry();
  pool = new ConnectionPool(registry, { attempts: 1, pingIntervalMs: 0 });
  await registry.addServer(createContext({ userId: 'alice' }), {
    id: 'everything',
    transport: 'stdio',
    command: process.execPath,
    args: [servers.everything],
  });
});
afterEach(async () => {
  observeMcpTraffic(undefined);
  seen.length = 0;
  await pool.close();
  await registry.close();
});

describe('the pool tells the MCP traffic observer of each call it makes', () => {
  it('with the user, the request it was made for, the server and tool, sizes and outcome', async () => {
    // Made before an observer is set: no one is told of it.
    await pool.callTool(createContext({ userId: 'alice' }), 'everything', 'echo', { message: 'a' });
    await new Promise((resolve) => setImmediate(resolve));
    observeMcpTraffic({ exchanged: (exchange) => seen.push(exchange) });
    const ctx = createContext({ userId: 'alice', requestId: 'request-1' });
    const args = { message: 'Zoë ✓' };
    const result = await pool.callTool(ctx, 'everything', 'echo', args);
    await expect(pool.callTool(ctx, 'everything', 'no_such_tool', {})).resolves.toMatchObject({
      isError: true,
    });
    // Told after the turn that answered: once it is over.
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([
      {
        direction: 'out',
        userId: 'alice',
        requestId: 'request-1',
        method: 'tools/call',
        name: 'echo',
        server: 'everything',
        at: expect.any(Number),
        durationMs: expect.any(Number),
        outcome: 'ok',
        requestBytes: jsonBytes(args),
        responseBytes: jsonBytes(result),
      },
      expect.objectContaining({
        name: 'no_such_tool',
        requestId: 'request-1',
        outcome: 'error',
        errorType: 'tool_error',
      }),
    ]);
    const [first] = seen;
    expect(Math.abs((first?.at ?? 0) - Date.now())).toBeLessThan(60_000);
    expect(first?.durationMs).toBeGreaterThan(0);
  });
});
