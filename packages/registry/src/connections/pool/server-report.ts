import { PolicyDeniedError, toMcpAgentError, type ServerTransport } from '@mcp-agent/core';
import type { ServerAvailability } from '../../store/availability/availability.js';
import type { ReadinessStatus } from '../../store/readiness/connection-state.js';
import { isHandshakeTimeout, waitReason } from './attempt-failure.js';
import { PASSED_ENV_VARIABLE } from './passed-env.js';
import type { PooledConnection } from './pooled-connection.js';

/**
 * How a server's wait ended: `ready`; `failed` (it could not start, exited, or broke the
 * protocol); `timeout` (no MCP handshake within the wait; it may still come up); `needs_auth`
 * (it asked for authorisation, or the stored sign-in is gone); `refused` (the policy of this
 * deployment does not allow it); `disabled`.
 */
export type FinalStatus = 'ready' | 'failed' | 'timeout' | 'needs_auth' | 'refused' | 'disabled';

/** One server's own final state, and the reason in words a user can act on. */
export interface ServerReport {
  /** The server. */
  readonly serverId: string;
  /** How it is reached: `stdio` or a URL transport. */
  readonly transport: ServerTransport;
  /** How its wait ended. */
  readonly status: FinalStatus;
  /** Why it is not ready, or `null` when it is. */
  readonly reason: string | null;
  /** The connection's last error as recorded (a timeout's reason included). */
  readonly lastError: string | null;
  /** Tools listed by its last discovery; `null` until one succeeded. */
  readonly toolCount: number | null;
  /** Connection attempts of the last discovery; `0` when it was not tried. */
  readonly attempts: number;
  /**
   * Variables of the documented passed set that are set on this host but were withheld from a
   * stdio server that hung: the usual reason behind a proxy or TLS inspection.
   */
  readonly withheldEnv: readonly string[];
}

/** Waits until the connection is ready or has failed, or `timeoutMs` passed: which of the two. */
export async function settle(
  connection: PooledConnection,
  timeoutMs: number,
): Promise<'settled' | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      connection.ensureReady().then(
        () => 'settled' as const,
        () => 'settled' as const,
      ),
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The report of a server that was connected (or tried), from its connection after the wait. */
export function connectionReport(
  server: ServerAvailability,
  connection: PooledConnection,
  outcome: 'settled' | 'timeout',
  timeoutMs: number,
): ServerReport {
  const state = connection.state;
  const base = {
    serverId: server.id,
    transport: server.transport,
    lastError: state.lastError,
    toolCount: state.toolCount,
    attempts: state.attempts,
  };
  if (state.status === 'ready') return { ...base, status: 'ready', reason: null, withheldEnv: [] };
  const hung = outcome === 'timeout' || connection.hungAtHandshake;
  const withheld = hung ? connection.withheldEnv : [];
  const hint =
    withheld.length === 0
      ? ''
      : `; withheld from its environment: ${withheld.join(', ')} (set on this host; pass them with ${PASSED_ENV_VARIABLE})`;
  if (outcome === 'timeout' || state.status === 'connecting' || state.status === 'pending') {
    const last =
      state.lastError === null || state.lastError === waitReason(timeoutMs)
        ? ''
        : ` (last attempt: ${state.lastError})`;
    return {
      ...base,
      status: 'timeout',
      reason: `${waitReason(timeoutMs)}${last}${hint}`,
      withheldEnv: withheld,
    };
  }
  return {
    ...base,
    status: recordedStatus(state) as Exclude<FinalStatus, 'ready'>,
    reason: `${state.lastError ?? 'failed without an error message'}${hint}`,
    withheldEnv: withheld,
  };
}

/**
 * A recorded state (a connection's, or the one stored for another process to read) in the words
 * of a report: the one mapping `servers status` and `servers show` share, so the two never name
 * one state differently. `timeout` when its last error is a handshake that got no answer in
 * time (see `isHandshakeTimeout`), whether the discovery still ran or ended; `pending` when it
 * was never tried or is connecting without an error yet.
 */
export function recordedStatus(state: {
  readonly status: ReadinessStatus;
  readonly lastError: string | null;
}): FinalStatus | 'pending' {
  if (state.status === 'ready') return 'ready';
  if (state.status === 'needs_auth') return 'needs_auth';
  if (isHandshakeTimeout(state.lastError)) return 'timeout';
  return state.status === 'failed' ? 'failed' : 'pending';
}

/** The report of a server that was not connected: disabled, unauthorised, or refused. */
export function unconnectedReport(
  server: ServerAvailability,
  status: 'disabled' | 'needs_auth' | 'refused' | 'failed',
  reason: string,
): ServerReport {
  return {
    serverId: server.id,
    transport: server.transport,
    status,
    reason,
    lastError: server.lastError,
    toolCount: server.toolCount,
    attempts: 0,
    withheldEnv: [],
  };
}

/**
 * One server's report (see `ConnectionPool.report`): a disabled or unauthorised one without a
 * connection; the others connected by `connect` and waited for up to `timeoutMs`, a wait that
 * ran out kept as the connection's last error. Never rejects.
 */
export async function reportServer(
  server: ServerAvailability,
  connect: () => Promise<PooledConnection>,
  timeoutMs: number,
): Promise<ServerReport> {
  if (server.excludedBy === 'disabled') return unconnectedReport(server, 'disabled', 'disabled');
  if (!server.authorized)
    return unconnectedReport(
      server,
      'needs_auth',
      server.verdict.available ? 'needs authorisation' : server.verdict.reason,
    );
  let connection: PooledConnection;
  try {
    connection = await connect();
  } catch (thrown) {
    const error = toMcpAgentError(thrown);
    const refused = PolicyDeniedError.isInstance(error);
    return unconnectedReport(server, refused ? 'refused' : 'failed', error.message);
  }
  const outcome = await settle(connection, timeoutMs);
  if (outcome === 'timeout') await connection.noteWait(waitReason(timeoutMs));
  return connectionReport(server, connection, outcome, timeoutMs);
}
