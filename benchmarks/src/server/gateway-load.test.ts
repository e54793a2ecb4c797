import { describe, expect, it } from 'vitest';
import { underLoad, wireGain, wireGains } from './gateway-load.js';
import type { GatewayPath } from './gateway-paths.js';

// A path that answers on a later turn of the event loop and counts the calls in flight.
function countingPath(name: string) {
  let inFlight = 0;
  const seen = { calls: 0, mostInFlight: 0 };
  const path: GatewayPath = {
    name,
    call: async () => {
      inFlight += 1;
      seen.calls += 1;
      seen.mostInFlight = Math.max(seen.mostInFlight, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
    },
    close: async () => undefined,
  };
  return { path, seen };
}

describe('the gateway benchmark under load', () => {
  it('sends every path its calls with the concurrency asked, and times each', async () => {
    const a = countingPath('a');
    const b = countingPath('b');
    const figures = await underLoad([a.path, b.path], 100, 8, 4);
    for (const { seen } of [a, b]) {
      expect(seen.calls).toBe(100);
      expect(seen.mostInFlight).toBe(8);
    }
    expect(Object.keys(figures)).toEqual(['a', 'b']);
    expect(figures.a?.ms.n).toBe(100);
    expect(figures.a?.calls_per_second).toBeGreaterThan(0);
    // No process behind a path: no served CPU, rather than a made-up one.
    expect(figures.a?.cpu_us_per_call.served).toBeUndefined();
  });

  it('rounds the calls up to whole runs and never sends more in flight than calls', async () => {
    const a = countingPath('a');
    const figures = await underLoad([a.path], 3, 16, 2);
    expect(a.seen.calls).toBe(4);
    expect(a.seen.mostInFlight).toBe(2);
    expect(figures.a?.ms.n).toBe(4);
  });

  it('says what the lanes save against the SDK alone, and nothing without both', () => {
    const ms = {
      mcp_agent_stdio_gateway: { p50: 0.3, p99: 1.2, n: 10 },
      mcp_agent_stdio_gateway_wire_sdk: { p50: 0.33, p99: 2, n: 10 },
      mcp_agent_http_gateway: { p50: 0.5, p99: 1, n: 10 },
    };
    const cpu = {
      mcp_agent_stdio_gateway: { client: 40, served: 100 },
      mcp_agent_stdio_gateway_wire_sdk: { client: 50, served: 130 },
      mcp_agent_http_gateway: { client: 60 },
    };
    expect(wireGain('mcp_agent_stdio_gateway', ms, cpu)).toEqual({
      lanes_gain_p50_ms: 0.03,
      lanes_gain_p99_ms: 0.8,
      lanes_gain_cpu_us_per_call: { client: 10, served: 30 },
      lanes_within_0_05_ms_p50: true,
    });
    expect(wireGain('mcp_agent_http_gateway', ms, cpu)).toBeUndefined();
    expect(Object.keys(wireGains(ms, cpu))).toEqual(['mcp_agent_stdio_gateway']);
  });
});
