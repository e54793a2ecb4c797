// Servers that never answer initialize, on real processes over stdio: the first wait that runs
// out is recorded at once with its true reason, our own stop of the process is never recorded
// as the server's failure, and a server that just timed out is tried once, not `attempts` times.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { createTestRegistry } from '../../testing/index.js';
import type { Registry } from '../../registry.js';
import { ConnectionPool } from './connection-pool.js';
import { misbehaving } from './pool-test-helpers.js';

const alice = createContext({ userId: 'alice' });
const options = {
  attempts: 3,
  backoff: { baseMs: 20, capMs: 80 },
  attemptTimeoutMs: 1_500,
  pingIntervalMs: 0,
};
let registry: Registry;
const pools: ConnectionPool[] = [];
const openPool = () => {
  const pool = new ConnectionPool(registry, options);
  pools.push(pool);
  return pool;
};

beforeEach(async () => {
  registry = await createTestRegistry();
  await registry.addServer(alice, misbehaving('hang1', 'hang-init'));
  await registry.addServer(alice, misbehaving('hang2', 'hang-init'));
});
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
  await registry.close();
});

async function stored(serverId: string) {
  const server = (await registry.availability(alice)).get(serverId);
  return { status: server?.status, lastError: server?.lastError };
}

describe('a server that hangs in initialize', () => {
  it('GW-11 the first wait that runs out is stored at once; closing records it, never our SIGTERM', async () => {
    const first = openPool();
    const states = await first.warmUp(alice, { timeoutMs: 300, serverIds: ['hang1', 'hang2'] });
    expect(states.map((s) => s.serverId).sort()).toEqual(['hang1', 'hang2']);
    // Stored while discovery still runs: another session or process reads it now.
    for (const id of ['hang1', 'hang2'])
      expect(await stored(id)).toEqual({
        status: 'connecting',
        lastError: 'no MCP handshake within 0.3 s',
      });
    // The process ends mid-discovery (a gateway session closing): its own kill is not the reason.
    await first.close();
    for (const id of ['hang1', 'hang2'])
      expect(await stored(id)).toEqual({
        status: 'failed',
        lastError: 'no MCP handshake within 0.3 s',
      });
  });

  it('GW-11 a server that just timed out is tried once, and the error says why', async () => {
    const first = openPool();
    await first.warmUp(alice, { timeoutMs: 300, serverIds: ['hang1'] });
    await first.close();
    // A later process (a new pool on the same registry) needs it for a call.
    const later = openPool();
    const started = performance.now();
    const error = (await later.ready(alice, 'hang1').catch((e: unknown) => e)) as Error;
    const took = performance.now() - started;
    expect(error.message).toMatch(
      /^Server "hang1" failed: initialize and tools\/list took over 1500 ms[^\n]*\(tried once, not 3 times: it did not answer the MCP handshake at its last start either\)/,
    );
    expect((await later.connection(alice, 'hang1')).state.attempts).toBe(1);
    // One attempt of 1.5 s, not three with backoff (over 4.5 s); generous for a loaded machine.
    expect(took).toBeLessThan(4_000);
    expect(await stored('hang1')).toMatchObject({
      status: 'failed',
      lastError: expect.stringMatching(/^initialize and tools\/list took over 1500 ms/),
    });
    // hang2 never timed out: its discovery makes every attempt.
    await later.ready(alice, 'hang2').catch(() => undefined);
    expect((await later.connection(alice, 'hang2')).state.attempts).toBe(3);
  });
});
