// `pnpm bench served`: the hostile-tenant probes of the catalogue's section K against the built
// server (dist/main.js) and CLI, measured from outside as the probe did: RSS from /proc, /health
// latency, session and body refusals, time to exit.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { latencyStats, round3 } from '@mcp-agent/core/testing';
import { serverFixtures } from '@mcp-agent/registry/testing';

const main = fileURLToPath(new URL('../main.js', import.meta.url));
const cli = fileURLToPath(new URL('../../../cli/dist/cli.js', import.meta.url));
const PROTOCOL = '2025-11-25';
const MB = 1024 * 1024;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rssMb = (pid: number) =>
  round3(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024);

function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const all: number[] = [];
  const walk = (parent: number) => {
    for (const child of children.get(parent) ?? []) {
      all.push(child);
      walk(child);
    }
  };
  walk(pid);
  return all;
}

// Samples a process's RSS until stopped; returns the peak.
function rssSampler(pid: number): () => number {
  let peak = rssMb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

// /health latencies while something else runs.
function healthSampler(url: string): () => Promise<{ p50: number; p99: number; max: number }> {
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

function streamed(bytes: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

interface Server {
  readonly url: string;
  readonly pid: number;
  readonly tokens: { readonly alice: string; readonly bob: string };
  close(): void;
}

async function startServer(home: string, script: string, flags: string[] = []): Promise<Server> {
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

// One tenant's MCP session over plain HTTP.
async function session(server: Server, token: string) {
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

async function api03(server: Server) {
  const routes = [
    ['POST', '/v1/tasks'],
    ['POST', '/v1/servers'],
    ['DELETE', '/v1/servers/reports'],
    ['POST', '/v1/servers/reports/oauth'],
    ['POST', '/v1/tasks/task_x/cancel'],
    ['POST', '/mcp'],
  ] as const;
  const before = rssMb(server.pid);
  const health = healthSampler(server.url);
  const floods: Record<string, unknown>[] = [];
  let peak = before;
  for (const [method, path] of routes)
    for (const declared of [true, false]) {
      const rssBefore = rssMb(server.pid);
      const sample = rssSampler(server.pid);
      const statuses = await Promise.all(
        Array.from({ length: 8 }, () =>
          fetch(`${server.url}${path}`, {
            method,
            duplex: 'half',
            headers: {
              authorization: `Bearer ${server.tokens.alice}`,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              ...(declared ? { 'content-length': String(100 * MB) } : {}),
            },
            body: streamed(100 * MB),
          } as RequestInit).then((r) => r.status),
        ),
      );
      const rssPeak = sample();
      peak = Math.max(peak, rssPeak);
      floods.push({
        route: `${method} ${path}`,
        contentLength: declared,
        all413: statuses.every((status) => status === 413),
        rssMb: { before: rssBefore, peak: rssPeak },
      });
    }
  const healthMs = await health();
  const after = rssMb(server.pid);
  await sleep(30_000);
  return {
    bodies: '8 × 100 MB at once, per route, with and without Content-Length',
    floods,
    rssMb: {
      before,
      peak,
      after,
      afterIdle30s: rssMb(server.pid),
      peakIncrease: round3(peak - before),
    },
    healthMsDuringFloods: healthMs,
  };
}

async function gw02(server: Server, results: number) {
  const perSession = 30;
  const before = rssMb(server.pid);
  const peak = rssSampler(server.pid);
  let calls = 0;
  const worker = async (w: number) => {
    while (calls < results) {
      const s = await session(server, w % 2 ? server.tokens.bob : server.tokens.alice);
      if (s.call === undefined) throw new Error(`session refused: ${s.status}`);
      for (let i = 0; i < perSession && calls < results; i++, calls++) await s.call(i + 1);
      await s.close();
    }
  };
  await Promise.all([0, 1, 2, 3].map(worker));
  const peakMb = peak();
  const after = rssMb(server.pid);
  await sleep(30_000);
  return {
    results: calls,
    perSession,
    rssMb: { before, peak: peakMb, after, afterIdle30s: rssMb(server.pid) },
  };
}

async function gw03(server: Server, attempts: number) {
  const before = rssMb(server.pid);
  let accepted = 0;
  let refused = 0;
  for (let i = 0; i < attempts; i++) {
    const s = await session(server, server.tokens.alice);
    if (s.status === 200) accepted += 1;
    else if (s.status === 429) refused += 1;
  }
  const held = rssMb(server.pid);
  const bob = (await session(server, server.tokens.bob)).status;
  return {
    attempts,
    accepted,
    refused,
    anotherUserStatus: bob,
    rssMb: { before, whileHeld: held, increase: round3(held - before) },
  };
}

// A server whose sessions expire after 3 s idle: the held ones go, and new ones fit again.
async function gw03Expiry(home: string, script: string) {
  const server = await startServer(home, script, ['--session-idle-ms', '3000']);
  try {
    let accepted = 0;
    for (let i = 0; i < 20; i++)
      if ((await session(server, server.tokens.alice)).status === 200) accepted += 1;
    await sleep(7_000); // the idle time and one sweep
    let acceptedAfterExpiry = 0;
    for (let i = 0; i < 16; i++)
      if ((await session(server, server.tokens.alice)).status === 200) acceptedAfterExpiry += 1;
    return {
      sessionIdleMs: 3_000,
      acceptedOf20: accepted,
      acceptedAfterExpiryOf16: acceptedAfterExpiry,
    };
  } finally {
    server.close();
  }
}

async function gw04(home: string, script: string) {
  const env = {
    ...process.env,
    MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64'),
    MCP_AGENT_USER: 'alice',
  };
  spawnSync(
    process.execPath,
    [cli, '--home', home, 'servers', 'add', 'reports', '--command', process.execPath].concat([
      '--arg',
      serverFixtures.scripted,
      '--arg',
      script,
    ]),
    { env },
  );
  const child = spawn(process.execPath, [cli, '--home', home, 'serve', '--stdio'], {
    env,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let out = '';
  const reply = (id: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (out.includes(`"id":${id}`)) {
          child.stdout.off('data', check);
          resolve();
        }
      };
      child.stdout.on('data', check);
      check();
    });
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: PROTOCOL,
      capabilities: {},
      clientInfo: { name: 'b', version: '1' },
    },
  });
  await reply(1);
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'search_tools', arguments: { query: 'report' } },
  });
  await reply(2);
  send({
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: { name: 'run_code', arguments: { code: 'return 1' } },
  });
  await reply(3);
  const big = Date.now();
  child.stdin.write(
    `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search_tools","arguments":{"query":"${'x'.repeat(11 * MB)}"}}}\n`,
  );
  await reply(4);
  const oversizedAnsweredMs = Date.now() - big;
  send({ jsonrpc: '2.0', id: 5, method: 'tools/list' });
  await reply(5);
  const held = descendants(child.pid as number);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const closed = performance.now();
  child.stdin.end();
  const code = await exited;
  const exitMs = round3(performance.now() - closed);
  await sleep(200);
  const left = held.filter((pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  });
  return {
    descendantsBeforeClose: held.length,
    exitCode: code,
    exitMs,
    descendantsLeft: left.length,
    oversizedAnsweredMs,
    servedAfterOversized: true,
  };
}

/** Runs the probes; `results` and `sessions` default to the catalogue's 4,500 and 6,000. */
export async function runServedBenchmark(options: { results?: number; sessions?: number } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'mcp-bench-served-'));
  const script = join(home, 'reports.json');
  const rows = Array.from({ length: 400 }, (_, i) => ({
    id: i,
    title: `Row ${i}`,
    body: 'x'.repeat(200),
  }));
  writeFileSync(
    script,
    JSON.stringify({
      tools: [
        {
          name: 'fetch_report',
          description: 'Fetch the quarterly report',
          inputSchema: { type: 'object' },
        },
      ],
      results: { fetch_report: { content: [{ type: 'text', text: JSON.stringify(rows) }] } },
    }),
  );
  const server = await startServer(home, script);
  try {
    for (const token of [server.tokens.alice, server.tokens.bob]) {
      const added = await fetch(`${server.url}/v1/servers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          id: 'reports',
          transport: 'stdio',
          command: process.execPath,
          args: [serverFixtures.scripted, script],
        }),
      });
      if (added.status !== 201) throw new Error(`adding the server failed: ${await added.text()}`);
    }
    const started = rssMb(server.pid);
    return {
      rssAtStartMb: started,
      'API-03': await api03(server),
      'GW-02': await gw02(server, options.results ?? 4_500),
      'GW-03': {
        ...(await gw03(server, options.sessions ?? 6_000)),
        expiry: await gw03Expiry(mkdtempSync(join(home, 'expiry-')), script),
      },
      'GW-04': await gw04(mkdtempSync(join(home, 'cli-')), script),
    };
  } finally {
    server.close();
    await sleep(500);
    rmSync(home, { recursive: true, force: true });
  }
}
