import { ConfigError, type Budget, type Environment } from '@mcp-agent/core';
import type { AgentLimits } from '@mcp-agent/agent';
import type { RateLimit } from '@mcp-agent/registry';
import type { TaskSettings } from './api/serve-api.js';
import type { EventStoreLimits } from '@mcp-agent/wire';
import type { ServerLimits } from './server-limits.js';

/**
 * Every limit an operator sets on a deployment: the agent's, the served surfaces', how durable
 * tasks are leased and kept, and the tool-call rate per user and server (counted in the
 * database, so it holds over every process).
 */
export interface OperatorLimits {
  /** The agent's: budget ceilings and running tasks per user. */
  readonly agent: AgentLimits;
  /**
   * The served surfaces': body size, gateway sessions, their idle time and stored events, and
   * how long an idle keep-alive connection stays open.
   */
  readonly server: ServerLimits;
  /** Durable tasks: their lease, how long and how many are kept per user. */
  readonly tasks: TaskSettings;
  /** Tool calls per user and server, counted over every process; default none. */
  readonly toolCalls?: RateLimit;
  /** The connection pool: how long a connection (and its child process) may sit idle. */
  readonly pool?: {
    /** Milliseconds idle before it closes. */
    readonly idleMs?: number;
  };
  /** Search: how long an unused catalog index or remembered tenant is kept. */
  readonly knowledge?: {
    /** Milliseconds unused before it is dropped. */
    readonly idleMs?: number;
  };
}

/** Where one flag's value goes in {@link OperatorLimits}. */
type LimitTarget =
  | { readonly in: 'budgetCeilings'; readonly key: keyof Budget }
  | { readonly in: 'agent'; readonly key: 'maxRunningTasksPerUser' }
  | {
      readonly in: 'server';
      readonly key: 'maxBodyBytes' | 'maxSessionsPerUser' | 'sessionIdleMs' | 'keepAliveTimeoutMs';
    }
  | { readonly in: 'eventStore'; readonly key: keyof EventStoreLimits }
  | { readonly in: 'tasks'; readonly key: 'leaseMs' | 'maxAgeMs' | 'maxPerUser' }
  | { readonly in: 'toolCalls'; readonly key: keyof RateLimit }
  | { readonly in: 'pool'; readonly key: 'idleMs' }
  | { readonly in: 'knowledge'; readonly key: 'idleMs' };

type LimitFlag = { readonly flag: string; readonly env: string } & LimitTarget;

// A flag's variable is its name in capitals under MCP_AGENT_ (--max-steps, MCP_AGENT_MAX_STEPS),
// so that no flag can be given a variable that breaks the pattern.
function limitFlag(flag: string, target: LimitTarget): LimitFlag {
  return { flag, env: `MCP_AGENT_${flag.toUpperCase().replaceAll('-', '_')}`, ...target };
}

/** The flags of main.js, each with its environment variable (the flag wins). */
export const LIMIT_FLAGS: readonly LimitFlag[] = [
  limitFlag('max-steps', { in: 'budgetCeilings', key: 'maxSteps' }),
  limitFlag('max-tool-calls', { in: 'budgetCeilings', key: 'maxToolCalls' }),
  limitFlag('max-input-tokens', { in: 'budgetCeilings', key: 'maxInputTokens' }),
  limitFlag('max-output-tokens', { in: 'budgetCeilings', key: 'maxOutputTokens' }),
  limitFlag('max-wall-time-ms', { in: 'budgetCeilings', key: 'maxWallTimeMs' }),
  limitFlag('max-running-tasks', { in: 'agent', key: 'maxRunningTasksPerUser' }),
  limitFlag('max-sessions', { in: 'server', key: 'maxSessionsPerUser' }),
  limitFlag('session-idle-ms', { in: 'server', key: 'sessionIdleMs' }),
  limitFlag('connection-idle-ms', { in: 'pool', key: 'idleMs' }),
  limitFlag('search-idle-ms', { in: 'knowledge', key: 'idleMs' }),
  limitFlag('max-body-bytes', { in: 'server', key: 'maxBodyBytes' }),
  limitFlag('keep-alive-ms', { in: 'server', key: 'keepAliveTimeoutMs' }),
  limitFlag('event-store-stream-bytes', { in: 'eventStore', key: 'maxBytesPerStream' }),
  limitFlag('event-store-session-bytes', { in: 'eventStore', key: 'maxBytesPerSession' }),
  limitFlag('event-store-total-bytes', { in: 'eventStore', key: 'maxBytesTotal' }),
  limitFlag('event-store-age-ms', { in: 'eventStore', key: 'maxAgeMs' }),
  limitFlag('task-lease-ms', { in: 'tasks', key: 'leaseMs' }),
  limitFlag('task-retention-ms', { in: 'tasks', key: 'maxAgeMs' }),
  limitFlag('tasks-kept-per-user', { in: 'tasks', key: 'maxPerUser' }),
  limitFlag('tool-calls-per-second', { in: 'toolCalls', key: 'ratePerSecond' }),
  limitFlag('tool-call-burst', { in: 'toolCalls', key: 'burst' }),
];

/** The `parseArgs` options of {@link LIMIT_FLAGS}. */
export const LIMIT_FLAG_OPTIONS: Record<string, { type: 'string' }> = Object.fromEntries(
  LIMIT_FLAGS.map((f) => [f.flag, { type: 'string' as const }]),
);

/**
 * Reads the operator's limits from parsed flags (`--max-steps 30`) and the environment
 * (`MCP_AGENT_MAX_STEPS=30`); what neither sets keeps its documented default. A value that is
 * not a positive whole number is a `ConfigError` naming the flag and the variable.
 */
export function readOperatorLimits(
  flags: Readonly<Record<string, unknown>>,
  env: Environment,
): OperatorLimits {
  const budgetCeilings: Partial<Record<keyof Budget, number>> = {};
  const agent: { maxRunningTasksPerUser?: number } = {};
  const server: Record<string, number> = {};
  const eventStore: Partial<Record<keyof EventStoreLimits, number>> = {};
  const tasks: Record<string, number> = {};
  const toolCalls: Partial<Record<keyof RateLimit, number>> = {};
  const pool: { idleMs?: number } = {};
  const knowledge: { idleMs?: number } = {};
  for (const entry of LIMIT_FLAGS) {
    const raw = flags[entry.flag] ?? env[entry.env];
    if (raw === undefined || raw === '') continue;
    const value = Number(String(raw).replaceAll('_', ''));
    if (!Number.isSafeInteger(value) || value < 1)
      throw new ConfigError(
        `--${entry.flag} (${entry.env}) must be a positive whole number; got "${String(raw)}".`,
      );
    if (entry.in === 'budgetCeilings') budgetCeilings[entry.key] = value;
    else if (entry.in === 'agent') agent[entry.key] = value;
    else if (entry.in === 'eventStore') eventStore[entry.key] = value;
    else if (entry.in === 'tasks') tasks[entry.key] = value;
    else if (entry.in === 'toolCalls') toolCalls[entry.key] = value;
    else if (entry.in === 'pool') pool[entry.key] = value;
    else if (entry.in === 'knowledge') knowledge[entry.key] = value;
    else server[entry.key] = value;
  }
  if (toolCalls.burst !== undefined && toolCalls.ratePerSecond === undefined)
    throw new ConfigError(
      '--tool-call-burst (MCP_AGENT_TOOL_CALL_BURST) needs --tool-calls-per-second (MCP_AGENT_TOOL_CALLS_PER_SECOND).',
    );
  const { leaseMs, maxAgeMs, maxPerUser } = tasks;
  return {
    agent: { ...agent, budgetCeilings },
    server: { ...server, ...(Object.keys(eventStore).length === 0 ? {} : { eventStore }) },
    tasks: {
      ...(leaseMs === undefined ? {} : { leaseMs }),
      ...(maxAgeMs === undefined && maxPerUser === undefined
        ? {}
        : {
            retention: {
              ...(maxAgeMs === undefined ? {} : { maxAgeMs }),
              ...(maxPerUser === undefined ? {} : { maxPerUser }),
            },
          }),
    },
    ...(pool.idleMs === undefined ? {} : { pool }),
    ...(knowledge.idleMs === undefined ? {} : { knowledge }),
    // A burst of one second's calls unless the operator says otherwise.
    ...(toolCalls.ratePerSecond === undefined
      ? {}
      : {
          toolCalls: {
            ratePerSecond: toolCalls.ratePerSecond,
            burst: toolCalls.burst ?? toolCalls.ratePerSecond,
          },
        }),
  };
}
