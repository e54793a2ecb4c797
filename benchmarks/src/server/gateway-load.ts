// The hot path under load for `pnpm bench gateway`: one path at a time, `concurrency` calls in
// flight on its one session, so a p99 shows what queueing in a gateway (one stdio pipe, one
// event loop) does to a call, which calls one after another never show.
import { latencyStats, round3, type LatencyStats } from '@mcp-agent/core/testing';
import type { GatewayPath } from './gateway-paths.js';
import { treeCpuNs } from './process-cpu.js';

/** Microseconds of CPU per call: this client's, and the serving process tree's where known. */
export interface CpuPerCall {
  readonly client: number;
  readonly served?: number;
}

/** One path's figures under load. */
export interface LoadFigures {
  readonly ms: LatencyStats;
  readonly calls_per_second: number;
  readonly cpu_us_per_call: CpuPerCall;
}

export const round1 = (value: number) => Math.round(value * 10) / 10;

/** What one path's runs under load added up to. */
interface LoadTotals {
  readonly times: number[];
  wallMs: number;
  clientUs: number;
  /** Nanoseconds; undefined once a read of /proc failed. */
  servedNs: number | undefined;
}

/**
 * Every path under load, one at a time: `calls` calls on each, `concurrency` in flight at once
 * (each caller sends its next call as soon as its last one is answered), in `rounds` runs per
 * path whose order rotates, so the machine's drift hits every path alike. Every call is timed
 * from its send to its answer; the CPU is read around each run (`process.cpuUsage` for this
 * client, the serving tree from /proc) and divided by the calls, so a path's CPU per call
 * includes what being busy costs it.
 */
export async function underLoad(
  paths: readonly GatewayPath[],
  calls: number,
  concurrency: number,
  rounds = 4,
): Promise<Record<string, LoadFigures>> {
  const totals = new Map<string, LoadTotals>(
    paths.map((path) => [path.name, { times: [], wallMs: 0, clientUs: 0, servedNs: 0 }]),
  );
  const perRound = Math.max(1, Math.ceil(calls / rounds));
  for (let round = 0; round < rounds; round += 1)
    for (let k = 0; k < paths.length; k += 1) {
      const path = paths[(round + k) % paths.length] as GatewayPath;
      await loadRun(path, perRound, concurrency, totals.get(path.name) as LoadTotals);
    }
  return Object.fromEntries(
    [...totals].map(([name, total]) => {
      const n = total.times.length;
      return [
        name,
        {
          ms: latencyStats(total.times),
          calls_per_second: round1((n / total.wallMs) * 1000),
          cpu_us_per_call: {
            client: round1(total.clientUs / n),
            ...(total.servedNs === undefined ? {} : { served: round1(total.servedNs / 1_000 / n) }),
          },
        },
      ];
    }),
  );
}

async function loadRun(
  path: GatewayPath,
  calls: number,
  concurrency: number,
  into: LoadTotals,
): Promise<void> {
  let sent = 0;
  const caller = async () => {
    while (sent < calls) {
      const n = sent;
      sent += 1;
      const started = performance.now();
      await path.call(`under load ${n}`);
      into.times.push(performance.now() - started);
    }
  };
  const servedBefore = path.pid === undefined ? undefined : treeCpuNs(path.pid);
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, calls) }, caller));
  into.wallMs += performance.now() - started;
  const used = process.cpuUsage(cpu);
  into.clientUs += used.user + used.system;
  const servedAfter = path.pid === undefined ? undefined : treeCpuNs(path.pid);
  into.servedNs =
    into.servedNs === undefined || servedBefore === undefined || servedAfter === undefined
      ? undefined
      : into.servedNs + (servedAfter - servedBefore);
}

/** What the lanes save against the SDK alone, for one gateway: positive is the lanes faster. */
export interface WireGain {
  readonly lanes_gain_p50_ms: number;
  readonly lanes_gain_p99_ms: number;
  /** CPU per call the lanes save: this client's, and the serving tree's. */
  readonly lanes_gain_cpu_us_per_call: { readonly client: number; readonly served?: number };
  /** The exit rule: lanes within 0.05 ms of the SDK (at p50) are to go. */
  readonly lanes_within_0_05_ms_p50: boolean;
}

/**
 * The lanes against the SDK alone for gateway `name` (its `_wire_sdk` twin), from one phase's
 * latencies and CPU; undefined when the run has not both.
 */
export function wireGain(
  name: string,
  ms: Readonly<Record<string, LatencyStats>>,
  cpu: Readonly<Record<string, CpuPerCall>>,
): WireGain | undefined {
  const lanes = ms[name];
  const sdk = ms[`${name}_wire_sdk`];
  const lanesCpu = cpu[name];
  const sdkCpu = cpu[`${name}_wire_sdk`];
  if (lanes === undefined || sdk === undefined || lanesCpu === undefined || sdkCpu === undefined)
    return undefined;
  return {
    lanes_gain_p50_ms: round3(sdk.p50 - lanes.p50),
    lanes_gain_p99_ms: round3(sdk.p99 - lanes.p99),
    lanes_gain_cpu_us_per_call: {
      client: round1(sdkCpu.client - lanesCpu.client),
      ...(lanesCpu.served === undefined || sdkCpu.served === undefined
        ? {}
        : { served: round1(sdkCpu.served - lanesCpu.served) }),
    },
    lanes_within_0_05_ms_p50: sdk.p50 - lanes.p50 <= 0.05,
  };
}

/** The lanes against the SDK for each of our gateways. */
export function wireGains(
  ms: Readonly<Record<string, LatencyStats>>,
  cpu: Readonly<Record<string, CpuPerCall>>,
): Record<string, WireGain> {
  const gains: Record<string, WireGain> = {};
  for (const name of [
    'mcp_agent_stdio_gateway',
    'mcp_agent_http_gateway',
    'mcp_agent_http_gateway_json',
  ]) {
    const gain = wireGain(name, ms, cpu);
    if (gain !== undefined) gains[name] = gain;
  }
  return gains;
}
