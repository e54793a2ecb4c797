// `pnpm bench soak [--minutes 20] [--rate 1.2] [--tenants 40] [--idle-ms 60000] [--check]`:
// the server as its own process on a SQLite home (soak-server.ts), churned (soak-churn.ts) for
// `minutes`, sampled from outside (RSS, fds, child processes from /proc) and from inside (heap
// after GC, sessions, stored events, connections, running tasks). Prints the slope of each
// after warm-up, and what is retained once the load stops and sessions and connections pass
// their idle timeouts (`--idle-ms`, both). `--check` exits 1 when a count does not come back
// to what the live tenants need after idle (none of anything), never on a timing: CI runs it.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedAnthropicServer } from '@mcp-agent/agent/testing';
import { round3 } from '@mcp-agent/core/testing';
import { serverFixtures } from '@mcp-agent/test-support';
import { rssMb, sleep } from './served-harness.js';
import { createChurn } from './soak-churn.js';
import type { InsideStats, SoakServerConfig } from './soak-server.js';

const serverMain = fileURLToPath(new URL('./soak-server.js', import.meta.url));

/**
 * What the server's README tells an operator to run a long-lived process with. V8 sizes its
 * young generation to the allocation rate (up to 192 MB measured on Node 24's defaults), in
 * steps that come at any time under load, and the pages it touched stay resident after it
 * shrinks; with 8 MB semi-spaces the young generation stops at 16 MB, reached in the first
 * minute.
 */
export const LONG_RUNNING_NODE_FLAGS = ['--max-semi-space-size=8'] as const;

/** One sample, taken from outside and inside. */
export interface SoakSample extends InsideStats {
  /** Seconds since the load started (negative before). */
  readonly at: number;
  readonly fds: number;
  /** The scripted MCP servers among the server's descendants. */
  readonly mcpChildren: number;
  /** Other descendants (sandbox workers). */
  readonly otherChildren: number;
  /** Tenants with a server at the time. */
  readonly liveTenants: number;
}

// The server's descendants from /proc, split into MCP servers and the rest.
function descendants(root: number): { mcp: number; other: number } {
  const parent = new Map<number, number>();
  const cmdline = new Map<number, string>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      parent.set(Number(name), Number(fields[1]));
      cmdline.set(Number(name), readFileSync(`/proc/${name}/cmdline`, 'utf8'));
    } catch {
      // Gone meanwhile.
    }
  }
  let mcp = 0;
  let other = 0;
  for (const pid of parent.keys()) {
    let up = parent.get(pid);
    while (up !== undefined && up !== root && up > 1) up = parent.get(up);
    if (up !== root) continue;
    if (cmdline.get(pid)?.includes(serverFixtures.scripted)) mcp += 1;
    else other += 1;
  }
  return { mcp, other };
}

// Least-squares slope of `value` over `at` (seconds), per 10 minutes.
function slopePer10Min(samples: readonly SoakSample[], value: (s: SoakSample) => number): number {
  if (samples.length < 2) return 0;
  const n = samples.length;
  const mx = samples.reduce((sum, s) => sum + s.at, 0) / n;
  const my = samples.reduce((sum, s) => sum + value(s), 0) / n;
  let num = 0;
  let den = 0;
  for (const s of samples) {
    num += (s.at - mx) * (value(s) - my);
    den += (s.at - mx) ** 2;
  }
  return den === 0 ? 0 : round3((num / den) * 600);
}

/** Runs the soak and returns its report. */
export async function runSoak(options: {
  minutes?: number;
  rate?: number;
  tenants?: number;
  idleMs?: number;
  sampleMs?: number;
  check?: boolean;
}) {
  const minutes = options.minutes ?? 20;
  const rate = options.rate ?? 1.2;
  const tenantCount = options.tenants ?? 40;
  const idleMs = options.idleMs ?? 60_000;
  const loadMs = minutes * 60_000;
  // Every 30 s, or often enough for ten samples in a short run.
  const sampleMs = options.sampleMs ?? Math.min(30_000, Math.max(5_000, loadMs / 10));
  const home = mkdtempSync(join(tmpdir(), 'mcp-agent-soak-'));
  const model = await startScriptedAnthropicServer();
  const tokens = Object.fromEntries(
    Array.from({ length: tenantCount }, (_, i) => [randomBytes(16).toString('hex'), `tenant-${i}`]),
  );
  const env = {
    ...process.env,
    MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64'),
    MCP_AGENT_HOME: home,
  };
  const config: SoakServerConfig = {
    home,
    modelUrl: model.url,
    tokens,
    sessionIdleMs: idleMs,
    connectionIdleMs: idleMs,
    maxSessionsPerUser: 64,
  };
  // The server runs as the README says to run one for weeks, unless SOAK_NODE_FLAGS gives other
  // Node or V8 flags (empty: Node's defaults) to compare.
  const nodeFlags = (process.env.SOAK_NODE_FLAGS ?? LONG_RUNNING_NODE_FLAGS.join(' '))
    .split(' ')
    .filter(Boolean);
  const child = spawn(process.execPath, ['--expose-gc', ...nodeFlags, serverMain], {
    env: { ...env, SOAK_SERVER: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4_000)));
  try {
    const { url, stats } = await new Promise<{ url: string; stats: string }>((resolve, reject) => {
      child.stdout.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString())));
      child.once('exit', (code) => reject(new Error(`soak server exited ${code}: ${log}`)));
    });
    const pid = child.pid as number;
    const churn = createChurn({ url, home, tokens, model, cliEnv: env });
    let started = performance.now();
    const sample = async (): Promise<SoakSample> => {
      const inside = (await (await fetch(stats)).json()) as InsideStats;
      const children = descendants(pid);
      return {
        at: Math.round((performance.now() - started) / 100) / 10,
        ...inside,
        rssMb: rssMb(pid),
        fds: readdirSync(`/proc/${pid}/fd`).length,
        mcpChildren: children.mcp,
        otherChildren: children.other,
        liveTenants: churn.liveTenants(),
      };
    };
    const snapshot = async (name: string) => {
      if (process.env.SOAK_SNAPSHOT_DIR !== undefined) await fetch(`${stats}/snapshot/${name}`);
    };
    const before = await sample();
    await snapshot('before');
    started = performance.now();
    const samples: SoakSample[] = [];
    const ticker = setInterval(() => churn.tick(), 1_000 / rate);
    while (performance.now() - started < loadMs) {
      await sleep(Math.min(sampleMs, loadMs - (performance.now() - started)));
      samples.push(await sample());
    }
    clearInterval(ticker);
    await churn.settle();
    const loadEnded = await sample();

    // Idle: sessions and connections pass their timeouts and the sweeps (each at most a
    // minute apart) run; the wait ends when everything is back, or at the limit.
    const idleStarted = performance.now();
    const limit = 2 * idleMs + 65_000;
    let after = await sample();
    // File descriptors too: an idle keep-alive connection is held until the server's
    // keep-alive timeout (65 s by default), and must then be gone like everything else.
    const back = (s: SoakSample) =>
      s.fds <= before.fds &&
      s.sessions === 0 &&
      s.events === 0 &&
      s.connections === 0 &&
      s.mcpChildren === 0 &&
      s.runningTasks === 0 &&
      s.indexes === 0 &&
      s.searchTenants === 0 &&
      s.keptResults === 0;
    while (!back(after) && performance.now() - idleStarted < limit) {
      await sleep(2_000);
      after = await sample();
    }
    const warm = samples.filter((s) => s.at >= (loadMs / 1000) * 0.25);
    await snapshot('after');
    const retained = {
      sessions: after.sessions,
      events: after.events,
      eventBytes: after.eventBytes,
      connections: after.connections,
      mcpChildren: after.mcpChildren,
      runningTasks: after.runningTasks,
      indexes: after.indexes,
      searchTenants: after.searchTenants,
      keptResults: after.keptResults,
      heapAfterGcMb: after.heapAfterGcMb,
      heapAboveBeforeMb: round3(after.heapAfterGcMb - before.heapAfterGcMb),
      heapTotalMb: after.heapTotalMb,
      externalMb: after.externalMb,
      rssMb: after.rssMb,
      fds: after.fds,
      fdsAboveBefore: after.fds - before.fds,
      otherChildren: after.otherChildren,
      secondsToComeBack: Math.round((performance.now() - idleStarted) / 1000),
    };
    const failed = back(after) ? [] : ['a count did not come back to zero after idle'];
    const report = {
      bench: 'soak',
      command: `pnpm bench soak --minutes ${minutes} --rate ${rate} --tenants ${tenantCount} --idle-ms ${idleMs}`,
      settings: {
        minutes,
        rate,
        tenants: tenantCount,
        idleMs,
        sampleMs,
        warmUpSeconds: (loadMs / 1000) * 0.25,
        serverNodeFlags: nodeFlags,
      },
      loadavgAtEnd: loadavg().map(round3),
      load: { ...churn.counts, requestsPerSecond: round3(churn.counts.requests / (loadMs / 1000)) },
      slopesPer10MinAfterWarmUp: {
        rssMb: slopePer10Min(warm, (s) => s.rssMb),
        heapAfterGcMb: slopePer10Min(warm, (s) => s.heapAfterGcMb),
        heapTotalMb: slopePer10Min(warm, (s) => s.heapTotalMb),
        newSpaceMb: slopePer10Min(warm, (s) => s.newSpaceMb),
        externalMb: slopePer10Min(warm, (s) => s.externalMb),
        fds: slopePer10Min(warm, (s) => s.fds),
        mcpChildren: slopePer10Min(warm, (s) => s.mcpChildren),
        sessions: slopePer10Min(warm, (s) => s.sessions),
        events: slopePer10Min(warm, (s) => s.events),
        connections: slopePer10Min(warm, (s) => s.connections),
      },
      before,
      peak: {
        rssMb: Math.max(...samples.map((s) => s.rssMb)),
        heapAfterGcMb: Math.max(...samples.map((s) => s.heapAfterGcMb)),
        sessions: Math.max(...samples.map((s) => s.sessions)),
        connections: Math.max(...samples.map((s) => s.connections)),
        mcpChildren: Math.max(...samples.map((s) => s.mcpChildren)),
        fds: Math.max(...samples.map((s) => s.fds)),
      },
      // Connections and MCP children never exceed the tenants that have a server.
      childrenTrackTenants: samples.every((s) => s.mcpChildren <= s.liveTenants + 2),
      loadEnded,
      retained,
      failed,
      samples: samples.map((s) => [
        s.at,
        s.rssMb,
        s.heapAfterGcMb,
        s.fds,
        s.mcpChildren,
        s.sessions,
        s.events,
        s.connections,
        s.runningTasks,
        s.heapTotalMb,
        s.newSpaceMb,
      ]),
      sampleColumns: [
        'at',
        'rssMb',
        'heapAfterGcMb',
        'fds',
        'mcpChildren',
        'sessions',
        'events',
        'connections',
        'runningTasks',
        'heapTotalMb',
        'newSpaceMb',
      ],
    };
    child.kill('SIGTERM');
    const exit = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const leftover = { ...report, cleanExit: exit === 0 };
    if (options.check === true && failed.length > 0) process.exitCode = 1;
    return leftover;
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await model.close();
    rmSync(home, { recursive: true, force: true });
  }
}
