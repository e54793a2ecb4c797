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
  /**
   * How long an idle keep-alive connection stays open before the server closes it. It must be
   * longer than the idle timeout of whatever holds connections to the server (a balancer or
   * proxy): otherwise the server closes a connection just as the balancer reuses it, and that
   * request fails (a 502 from the balancer).
   */
  readonly keepAliveTimeoutMs?: number;
}

/**
 * The defaults of {@link ServerLimits}: 1 MiB bodies (a tool call's arguments may be 1 MB), 16
 * sessions per user, 30 minutes of idleness, 65 s keep-alive (past the 60 s idle timeout of
 * common balancers and proxies: an AWS ALB's default, nginx's upstream `keepalive_timeout`;
 * Node's own default of 5 s is shorter than all of them).
 */
export const DEFAULT_SERVER_LIMITS = Object.freeze({
  maxBodyBytes: 1024 * 1024,
  maxSessionsPerUser: 16,
  sessionIdleMs: 30 * 60_000,
  eventStore: DEFAULT_EVENT_STORE_LIMITS,
  keepAliveTimeoutMs: 65_000,
});

/** {@link ServerLimits} filled with the defaults; a `ConfigError` names a bad one. */
export function resolveServerLimits(limits: ServerLimits = {}): Readonly<{
  maxBodyBytes: number;
  maxSessionsPerUser: number;
  sessionIdleMs: number;
  eventStore: Partial<EventStoreLimits>;
  keepAliveTimeoutMs: number;
}> {
  const resolved = { ...DEFAULT_SERVER_LIMITS, ...limits };
  for (const name of [
    'maxBodyBytes',
    'maxSessionsPerUser',
    'sessionIdleMs',
    'keepAliveTimeoutMs',
  ] as const) {
    const value = resolved[name];
    if (!Number.isInteger(value) || value < 1)
      throw new ConfigError(`Invalid ${name}: ${String(value)}; a positive whole number.`);
  }
  return resolved;
}
