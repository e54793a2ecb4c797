import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { MULTI_TENANT_POLICY } from '@mcp-agent/registry';
import { StaticTokenVerifier } from '../auth/token-verifier.js';
import { DEFAULT_SERVER_LIMITS } from '../server-limits.js';
import { serveHttpApi, type ServedApi } from './serve-api.js';

// A balancer keeps connections to its backends open and reuses them. When the backend closes an
// idle one first (Node's default: 5 s, plus its 1 s buffer), a request the balancer sends on it
// at that moment fails and the balancer answers 502: the load run's failures after its 503s were
// explained (docs/closing-figures.md, load-03). The server keeps an idle connection longer than
// a balancer's idle timeout, and still closes it once that passes.

const home = mkdtempSync(join(tmpdir(), 'mcp-keep-alive-'));
let stack: AgentStack;
const served: ServedApi[] = [];

beforeAll(async () => {
  stack = await openAgentStack({
    home,
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
    userServers: MULTI_TENANT_POLICY,
    sandbox: false,
  });
});
afterAll(async () => {
  await Promise.all(served.map((api) => api.close()));
  await stack?.close();
  rmSync(home, { recursive: true, force: true });
});

async function serve(keepAliveTimeoutMs?: number): Promise<ServedApi> {
  const api = await serveHttpApi({
    stack,
    port: 0,
    verifier: new StaticTokenVerifier({}),
    ...(keepAliveTimeoutMs === undefined ? {} : { limits: { keepAliveTimeoutMs } }),
  });
  served.push(api);
  return api;
}

interface Answer {
  readonly status: number;
  readonly keepAlive: string;
  /** Sent on a connection an earlier request used. */
  readonly reused: boolean;
  /** The client's port: the same one means the same connection. */
  readonly localPort: number | undefined;
}

// GET /health through `agent`, which keeps one connection open between requests, as a balancer.
function health(base: string, agent: Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/health`, { agent }, (res) => {
      res.resume();
      res.once('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          keepAlive: String(res.headers['keep-alive']),
          reused: req.reusedSocket,
          localPort: req.socket?.localPort,
        }),
      );
    });
    req.once('error', reject);
    req.end();
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('keep-alive connections (what a balancer holds to each process)', () => {
  it('LOAD-03 keeps an idle connection past 60 s by default, and says so in Keep-Alive', async () => {
    const api = await serve();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await health(api.url, agent);
      expect(first).toMatchObject({ status: 200, keepAlive: 'timeout=65', reused: false });
      // Past Node's default (5 s and its 1 s buffer), which closed this connection before.
      await sleep(7_000);
      const second = await health(api.url, agent);
      expect(second).toMatchObject({ status: 200, reused: true, localPort: first.localPort });
      expect(DEFAULT_SERVER_LIMITS.keepAliveTimeoutMs).toBeGreaterThan(60_000);
      expect((api.server as Server).keepAliveTimeout).toBe(
        DEFAULT_SERVER_LIMITS.keepAliveTimeoutMs,
      );
    } finally {
      agent.destroy();
    }
  }, 20_000);

  it('LOAD-03 closes an idle connection once the configured keep-alive passes', async () => {
    const short = await serve(300);
    const long = await serve(20_000);
    const agents = [new Agent({ keepAlive: true }), new Agent({ keepAlive: true })] as const;
    try {
      const before = await Promise.all([health(short.url, agents[0]), health(long.url, agents[1])]);
      expect(before.map((a) => a.keepAlive)).toEqual(['timeout=0', 'timeout=20']);
      // 300 ms and Node's 1 s buffer: well past it for one, well within it for the other.
      await sleep(3_000);
      const after = await Promise.all([health(short.url, agents[0]), health(long.url, agents[1])]);
      expect(after[0]).toMatchObject({ status: 200, reused: false });
      expect(after[0].localPort).not.toBe(before[0]?.localPort);
      expect(after[1]).toMatchObject({
        status: 200,
        reused: true,
        localPort: before[1]?.localPort,
      });
    } finally {
      for (const agent of agents) agent.destroy();
    }
  }, 20_000);
});
