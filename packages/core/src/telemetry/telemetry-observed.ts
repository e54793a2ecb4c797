import { instruments } from './instruments.js';
import { mcpTrafficObserver } from './mcp-traffic.js';
import { isTracing } from './tracing.js';

/**
 * Whether anything reads a call's telemetry now: a tracer (spans), a meter provider that records
 * (metrics), or an MCP traffic observer (see `observeMcpTraffic`). Where nothing does — a stdio
 * gateway, a library without an SDK registered — a per-call wrapper that only measures for them
 * is skipped whole: no frame, no timer, no closure on the call's way.
 */
export function isTelemetryObserved(): boolean {
  return isTracing() || instruments().recording || mcpTrafficObserver() !== undefined;
}
