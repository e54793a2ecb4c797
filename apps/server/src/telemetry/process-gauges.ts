import type { ObservableResult } from '@opentelemetry/api';
import type { MeterProvider } from '@opentelemetry/sdk-metrics';
import { METER_NAME } from '@mcp-agent/core';
import type { ConnectionPool } from '@mcp-agent/registry';

/** What the process gauges read. */
export interface ObservedSources {
  /** The pool, for its sessions by server and readiness. */
  readonly pool?: Pick<ConnectionPool, 'statusOfAll'>;
  /** The HTTP gateway, for its open sessions. */
  readonly gateway?: {
    /** Sessions open now. */
    readonly sessions: number;
  };
}

/**
 * Gauges read at each collection: the process's memory (`mcp_agent.process.memory`, by `type`),
 * the pool's open sessions by server and readiness (`mcp_agent.connector.sessions`, with
 * `status` = pending, connecting, ready, failed), and the gateway's open sessions. Returns the
 * function that stops observing.
 */
export function observeProcess(provider: MeterProvider, sources: ObservedSources): () => void {
  const meter = provider.getMeter(METER_NAME, '0.1.0');
  const memory = meter.createObservableGauge('mcp_agent.process.memory', {
    description: 'Memory of this process, by type (rss, heap_used, heap_total, external).',
    unit: 'By',
  });
  const sessions = meter.createObservableGauge('mcp_agent.connector.sessions', {
    description: 'Open pooled MCP sessions, by server and readiness status.',
  });
  const gatewaySessions = meter.createObservableGauge('mcp_agent.gateway.sessions', {
    description: 'Open gateway (MCP over streamable HTTP) sessions.',
  });
  const observeMemory = (result: ObservableResult) => {
    const usage = process.memoryUsage();
    result.observe(usage.rss, { type: 'rss' });
    result.observe(usage.heapUsed, { type: 'heap_used' });
    result.observe(usage.heapTotal, { type: 'heap_total' });
    result.observe(usage.external, { type: 'external' });
  };
  const observeSessions = (result: ObservableResult) => {
    const counts = new Map<string, { server: string; status: string; count: number }>();
    for (const state of sources.pool?.statusOfAll() ?? []) {
      const key = `${state.serverId}\u0000${state.status}`;
      const entry = counts.get(key) ?? { server: state.serverId, status: state.status, count: 0 };
      entry.count += 1;
      counts.set(key, entry);
    }
    for (const { server, status, count } of counts.values())
      result.observe(count, { server, status });
  };
  const observeGateway = (result: ObservableResult) => {
    if (sources.gateway !== undefined) result.observe(sources.gateway.sessions);
  };
  memory.addCallback(observeMemory);
  sessions.addCallback(observeSessions);
  gatewaySessions.addCallback(observeGateway);
  return () => {
    memory.removeCallback(observeMemory);
    sessions.removeCallback(observeSessions);
    gatewaySessions.removeCallback(observeGateway);
  };
}
