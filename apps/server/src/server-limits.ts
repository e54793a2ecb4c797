import { ConfigError } from '@mcp-agent/core';
import { DEFAULT_EVENT_STORE_LIMITS, type EventStoreLimits } from '@mcp-agent/wire';

/**
 * What one user may hold on the served surfaces (the HTTP API and the gateway). The limits on
 * tasks (budget ceilings, running tasks per user) belong to the agent: `AgentLimits`.
 */
export interface ServerLimits {
  /** Request bodies on `/v1/*` and `/mcp`: refused with 413 before they are read past this. */
  readonly maxBodyBytes?: number;
  /** Open gateway sessions per user; one more is refused with 429. */
  readonly maxSessionsPerUser?: number;
  /** A gateway session with no request for this long is closed and all it holds released. */
  readonly sessionIdleMs?: number;
  /** The gateway's resume store, per stream, per session and in total. */
  readonly eventStore?: Partial<EventStoreLimits>;
}

/**
 * The defaults of {@link ServerLimits}: 1 MiB bodies (a tool call's arguments may be 1 MB), 16
 * sessions per user, 30 minutes of idleness.
 */
export const DEFAULT_SERVER_LIMITS = Object.freeze({
  maxBodyBytes: 1024 * 1024,
  maxSessionsPerUser: 16,
  sessionIdleMs: 30 * 60_000,
  eventStore: DEFAULT_EVENT_STORE_LIMITS,
});

/** {@link ServerLimits} filled with the defaults; a `ConfigError` names a bad one. */
export function resolveServerLimits(limits: ServerLimits = {}): Readonly<{
  maxBodyBytes: number;
  maxSessionsPerUser: number;
  sessionIdleMs: number;
  eventStore: Partial<EventStoreLimits>;
}> {
  const resolved = { ...DEFAULT_SERVER_LIMITS, ...limits };
  for (const name of ['maxBodyBytes', 'maxSessionsPerUser', 'sessionIdleMs'] as const) {
    const value = resolved[name];
    if (!Number.isInteger(value) || value < 1)
      throw new ConfigError(`Invalid ${name}: ${String(value)}; a positive whole number.`);
  }
  return resolved;
}
