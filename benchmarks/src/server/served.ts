// `pnpm bench served`: the hostile-tenant probes of the catalogue's section K against the built
// server (dist/main.js) and CLI, measured from outside as the probe did: RSS from /proc, /health
// latency, session and body refusals, time to exit.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { round3 } from '@mcp-agent/core/testing';
import {
  healthSampler,
  MB,
  PROTOCOL,
  rssMb,
  rssSampler,
  session,
  sleep,
  startServer,
  type Server,
} from './served-harness.js';
import { alive, descendants, serverFixtures, streamedBody } from '@mcp-agent/test-support';

const cli = fileURLToPath(
  new URL('../../node_modules/@mcp-agent/cli/dist/cli.js', import.meta.url),
);

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
            body: streamedBody(100 * MB),
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
  // One request, answered before the next is sent.
  const request = async (id: number, method: string, params?: object) => {
    send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    await reply(id);
  };
  await request(1, 'initialize', {
    protocolVersion: PROTOCOL,
    capabilities: {},
    clientInfo: { name: 'b', version: '1' },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await request(2, 'tools/call', { name: 'search_tools', arguments: { query: 'report' } });
  await request(3, 'tools/call', { name: 'run_code', arguments: { code: 'return 1' } });
  const big = Date.now();
  child.stdin.write(
    `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search_tools","arguments":{"query":"${'x'.repeat(11 * MB)}"}}}\n`,
  );
  await reply(4);
  const oversizedAnsweredMs = Date.now() - big;
  await request(5, 'tools/list');
  const held = descendants(child.pid as number);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const closed = performance.now();
  child.stdin.end();
  const code = await exited;
  const exitMs = round3(performance.now() - closed);
  await sleep(200);
  const left = held.filter(alive);
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
