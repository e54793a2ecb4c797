// `pnpm bench scale` and `pnpm bench load-03`: server processes on one PostgreSQL behind the
// round-robin (sticky) balancer on loopback, tenants calling a cheap tool through the gateway.
import { round3 } from '@mcp-agent/core/testing';
import { GatewaySession, type CallOutcome } from '@mcp-agent/test-support';
import { ECHO, machine, setUpScale, summarise } from './scale-setup.js';

/** Throughput and latency for 1, 2 and 3 processes, and each count's ratio to one process. */
export async function runScaleBenchmark(
  options: { tenants?: number; calls?: number; processes?: readonly number[] } = {},
) {
  const tenants = options.tenants ?? 16;
  const calls = options.calls ?? 2_000;
  const counts = options.processes ?? [1, 2, 3];
  const setup = await setUpScale({ tenants, processes: 0 });
  try {
    const cells = [];
    for (const processes of counts) {
      while (setup.live.length < processes) await setup.addProcess(`p${setup.live.length + 1}`);
      // New sessions, so they spread over every process the balancer now has.
      const sessions = setup.tokens.map(
        (token) => new GatewaySession(setup.balancer.url, token, { describe: [ECHO] }),
      );
      await Promise.all(sessions.map((session) => session.open()));
      // Warm: connections to the echo server, compiled validators, JIT.
      await Promise.all(
        sessions.map(async (session) => {
          for (let i = 0; i < 5; i += 1) await session.call('call_tool', echoCall(i));
        }),
      );
      const outcomes: CallOutcome[] = [];
      let left = calls;
      const started = performance.now();
      await Promise.all(
        sessions.map(async (session) => {
          while (left > 0) {
            left -= 1;
            outcomes.push(await session.call('call_tool', echoCall(left)));
          }
        }),
      );
      const seconds = (performance.now() - started) / 1_000;
      await Promise.all(sessions.map((session) => session.close()));
      cells.push({ processes, ...summarise(outcomes, seconds), machine: machine() });
    }
    const base = cells[0]?.callsPerSecond ?? 1;
    const handoff = setup.live.length >= 2 ? await measureHandoff(setup) : undefined;
    return {
      benchmark: 'scale',
      setup: `${tenants} tenants, each one gateway session through a sticky round-robin balancer on loopback, calling ${ECHO} (a streamable-HTTP app server) back to back; ${calls} calls per cell after 5 warm-up calls per tenant; one PostgreSQL. handoff: each tenant's session opened on the first process, its next call sent to the second (which loads it from the database), then one more call there`,
      cells: cells.map((cell) => ({
        ...cell,
        ratioToOneProcess: round3(cell.callsPerSecond / base),
      })),
      ...(handoff === undefined ? {} : { handoff }),
    };
  } finally {
    await setup.close();
  }
}

/**
 * What a session costs on a process that does not hold it: each tenant's session is opened on
 * the first process (describe, one call), then its next call goes straight to the second, which
 * loads the session from PostgreSQL, rebuilds it and answers; then one more call there, held.
 * One tenant at a time, so the figures are the handoff's, not the queue's.
 */
async function measureHandoff(setup: Awaited<ReturnType<typeof setUpScale>>) {
  const [first, second] = setup.live;
  if (first === undefined || second === undefined) throw new Error('two processes needed');
  const moved: CallOutcome[] = [];
  const held: CallOutcome[] = [];
  for (const token of setup.tokens) {
    const session = new GatewaySession(first.url, token, { describe: [ECHO] });
    await session.open();
    await session.call('call_tool', echoCall(0));
    session.moveTo(second.url);
    moved.push(await session.call('call_tool', echoCall(1)));
    held.push(await session.call('call_tool', echoCall(2)));
    await session.close();
  }
  const figures = (outcomes: CallOutcome[]) => {
    const { p50Ms, p99Ms, failures } = summarise(outcomes, 1);
    return { p50Ms, p99Ms, failures };
  };
  return {
    sessions: setup.tokens.length,
    firstRequestOnNewProcess: figures(moved),
    nextRequestThere: figures(held),
  };
}

/**
 * LOAD-03, bounded for a 2-core machine: `tenants` tenants ramped over `rampMs` onto three
 * processes, each making `callsPerTenant` calls one `intervalMs` apart, no retries. The goal is
 * failures under 0.1%.
 */
export async function runLoad03(
  options: { tenants?: number; rampMs?: number; callsPerTenant?: number; intervalMs?: number } = {},
) {
  const tenants = options.tenants ?? 200;
  const rampMs = options.rampMs ?? 60_000;
  const callsPerTenant = options.callsPerTenant ?? 15;
  const intervalMs = options.intervalMs ?? 1_000;
  const setup = await setUpScale({ tenants, processes: 3 });
  try {
    const outcomes: CallOutcome[] = [];
    const started = performance.now();
    let peakLoad = machine();
    const sampler = setInterval(() => {
      const now = machine();
      if (now.loadAverage1m > peakLoad.loadAverage1m) peakLoad = now;
    }, 5_000);
    await Promise.all(
      setup.tokens.map(async (token, i) => {
        await sleep((rampMs * i) / tenants);
        const session = new GatewaySession(setup.balancer.url, token, { describe: [ECHO] });
        try {
          await session.open();
        } catch (error) {
          for (let n = 0; n < callsPerTenant; n += 1)
            outcomes.push({ ok: false, ms: 0, attempts: 1, error: (error as Error).message });
          return;
        }
        for (let n = 0; n < callsPerTenant; n += 1) {
          const next = performance.now() + intervalMs;
          outcomes.push(await session.call('call_tool', echoCall(n)));
          await sleep(next - performance.now());
        }
        await session.close();
      }),
    );
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1_000;
    const summary = summarise(outcomes, seconds);
    const { forwarded, noBackend, failed, upstreamErrors, probes } = setup.balancer.stats();
    return {
      benchmark: 'load-03',
      setup: `${tenants} tenants ramped over ${rampMs / 1_000} s onto 3 processes (one PostgreSQL, sticky round-robin balancer), ${callsPerTenant} calls each ${intervalMs} ms apart, no client retries`,
      ...summary,
      goal: 'failures < 0.1%',
      met: summary.failureRate < 0.001,
      errors: countErrors(outcomes),
      perProcess: forwarded,
      // Who refused: the balancer itself (noBackend) or a backend, and how its /ready probes went.
      balancer: { noBackend, failed, upstreamErrors, probes },
      peakMachine: peakLoad,
    };
  } finally {
    await setup.close();
  }
}

/** The distinct errors of failed calls (the five most frequent), each with how often it came. */
export function countErrors(outcomes: readonly CallOutcome[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const o of outcomes)
    if (!o.ok) counts.set(o.error ?? '', (counts.get(o.error ?? '') ?? 0) + 1);
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]).slice(0, 5));
}

/** The arguments of one echo call. */
export function echoCall(n: number) {
  return { tool_id: ECHO, arguments: { message: `call ${n}` } };
}

/** Resolves after `ms` (at once when it is not positive). */
export const sleep = (ms: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
