// The harness of `pnpm bench served`: the built server as a child process, a tenant's MCP
// session over plain HTTP, and samplers of what the probe measured from outside.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { latencyStats, round3 } from '@mcp-agent/core/testing';
import { serverMain } from '@mcp-agent/server/testing';
import { serverFixtures } from '@mcp-agent/test-support';

const main = serverMain();
/** The MCP version whose streams start with a resumable priming event. */
export const PROTOCOL = '2025-11-25';
/** One mebibyte. */
export const MB = 1024 * 1024;

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A process's resident memory in MB, from /proc. */
export const rssMb = (pid: number) =>
  round3(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024);

/** Samples a process's RSS every 20 ms until the returned stop, which gives the peak. */
export function rssSampler(pid: number): () => number {
  let peak = rssMb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

/** Times `/health` every 10 ms until the returned stop, which gives the latencies. */
export function healthSampler(
  url: string,
): () => Promise<{ p50: number; p99: number; max: number }> {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${url}/health`).then((r) => r.text());
      times.push(performance.now() - started);
      await sleep(10);
    }
  })();
  return async () => {
    running = false;
    await loop;
    const stats = latencyStats(times);
    return { p50: stats.p50, p99: stats.p99, max: round3(Math.max(...times)) };
  };
}

/** The server under test, with a token for each of two tenants. */
export interface Server {
  readonly url: string;
  readonly pid: number;
  readonly tokens: { readonly alice: string; readonly bob: string };
  close(): void;
}

/** Starts dist/main.js on a free port with the scripted server allowlisted. */
export async function startServer(
  home: string,
  script: string,
  flags: string[] = [],
): Promise<Server> {
  const tokens = { alice: randomBytes(16).toString('hex'), bob: randomBytes(16).toString('hex') };
  writeFileSync(
    join(home, 'tokens.json'),
    JSON.stringify({ tokens: { [tokens.alice]: 'alice', [tokens.bob]: 'bob' } }),
  );
  writeFileSync(
    join(home, 'allow.json'),
    JSON.stringify({
      stdio: [{ command: process.execPath, args: [serverFixtures.scripted, script] }],
    }),
  );
  const child: ChildProcess = spawn(
    process.execPath,
    [main, '--port', '0', '--home', home, '--tokens', join(home, 'tokens.json')].concat([
      '--stdio-allowlist',
      join(home, 'allow.json'),
      ...flags,
    ]),
    {
      env: { ...process.env, MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const match = /"url":"([^"]+)"/.exec(log);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${log}`)));
  });
  return { url, pid: child.pid as number, tokens, close: () => child.kill('SIGTERM') };
}

/** One tenant's MCP session over plain HTTP: initialized, then `call` and `close`. */
export async function session(server: Server, token: string) {
  const headers = (id?: string) => ({
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(id === undefined ? {} : { 'mcp-session-id': id, 'mcp-protocol-version': PROTOCOL }),
  });
  const post = async (id: string | undefined, message: object) => {
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: headers(id),
      body: JSON.stringify({ jsonrpc: '2.0', ...message }),
    });
    await response.text();
    return response;
  };
  const init = await post(undefined, {
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: PROTOCOL,
      capabilities: {},
      clientInfo: { name: 'b', version: '1' },
    },
  });
  const id = init.headers.get('mcp-session-id') ?? undefined;
  if (init.status !== 200 || id === undefined) return { status: init.status };
  await post(id, { method: 'notifications/initialized' });
  return {
    status: init.status,
    call: (n: number) =>
      post(id, {
        id: n,
        method: 'tools/call',
        params: {
          name: 'call_tool',
          arguments: { tool_id: 'reports.fetch_report', arguments: {} },
        },
      }),
    close: () => fetch(`${server.url}/mcp`, { method: 'DELETE', headers: headers(id) }),
  };
}
