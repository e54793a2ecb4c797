import { renamedOption, type Logger, type ServerConfig } from '@mcp-agent/core';
import {
  Dispatcher,
  loggingLink,
  quotaLink,
  rateLimitLink,
  telemetryLink,
  usageLink,
  type DispatcherOptions,
  type RateLimits,
} from '@mcp-agent/actions';
import { IsolatedVmSandbox, MemoryObservationStore, type Sandbox } from '@mcp-agent/execution';
import { Knowledge, type KnowledgeOptions } from '@mcp-agent/knowledge';
import {
  ConnectionPool,
  OAuthService,
  openRegistry,
  passedEnvFrom,
  type ConnectionPoolOptions,
  type OpenRegistryOptions,
  type Registry,
} from '@mcp-agent/registry';
import type { AgentLimits } from './agent-limits.js';
import { Agent } from './agent.js';
import type { ModelClient } from './model/model-client.js';
import type { PriceTable } from './model/model-prices.js';

/** Options of {@link openAgentStack} (`quotas`: the deployment's, see `OpenRegistryOptions`). */
export interface OpenAgentStackOptions extends OpenRegistryOptions {
  /**
   * Servers the operator gives every user (the app tier), under the users' own; a user's server
   * of the same id overrides one of these.
   */
  readonly appServers?: readonly ServerConfig[];
  /** The pool's bounds and timings over its defaults: size, idle close, pings, retries, restarts. */
  readonly pool?: ConnectionPoolOptions;
  /** Search: its caches' bounds and idle expiry (`idleMs`, default 30 min), its ranking. */
  readonly knowledge?: Omit<KnowledgeOptions, 'registry'>;
  /**
   * Middleware and mappings of the dispatcher; `links` default to `[telemetryLink, loggingLink]`
   * (keep `telemetryLink` first in links of your own to keep the dispatch spans). The quota and
   * usage links always follow them: every call is counted and recorded.
   */
  readonly dispatcher?: Omit<DispatcherOptions, 'registry' | 'pool'>;
  /** `false` leaves run_code out; default: an isolated-vm sandbox with 2 workers. */
  readonly sandbox?: Sandbox | false;
  /** The model of every task; default the one the environment names, resolved per task. */
  readonly model?: ModelClient;
  /** Receives the pool's logs and each task's, its tool calls included; default silent. */
  readonly logger?: Logger;
  /** Offer query_server (a sub-agent per server) in every task; default false. */
  readonly serverAgents?: boolean;
  /** Model prices per model id over the defaults (see `AgentOptions.prices`). */
  readonly prices?: PriceTable;
  /** The operator's ceilings on every task's budget, and running tasks per user. */
  readonly limits?: AgentLimits;
  /**
   * Tool calls per user and server, counted in the registry's database (so several processes
   * on one database allow the limit once between them); a call past it is `RATE_LIMITED`.
   */
  readonly rateLimits?: RateLimits;
}

/**
 * Everything an application holds: close it once, at shutdown. The parts besides `agent` are
 * there for what a host does around tasks (adding a user's server, an OAuth sign-in, a gateway
 * session over the same dispatcher); they share one registry, pool and sandbox with the agent.
 */
export interface AgentStack {
  /** Runs tasks over the parts below. */
  readonly agent: Agent;
  /** The users' servers, credentials, quotas, usage and tasks. */
  readonly registry: Registry;
  /** The live connections to the users' servers, shared by every task. */
  readonly pool: ConnectionPool;
  /** Tool search and deep views over the registry's catalog. */
  readonly knowledge: Knowledge;
  /** Runs every tool call, with the quota and usage links always last. */
  readonly dispatcher: Dispatcher;
  /** The run_code sandbox; `undefined` when opened with `sandbox: false`. */
  readonly sandbox: Sandbox | undefined;
  /** Signs users in to OAuth servers and keeps their tokens in the registry's vault. */
  readonly oauth: OAuthService;
  /** Closes the connections, the sandbox, the knowledge index and the database, in that order. */
  close(): Promise<void>;
}

/**
 * Opens the whole stack on the defaults (the embedded SQLite registry under `MCP_AGENT_HOME`,
 * stdio servers given the host's proxy, certificate and npm variables (`MCP_AGENT_PASS_ENV`),
 * a connection pool, knowledge, a dispatcher with an observation store, the sandbox) and the
 * agent over it: what the CLI, the server and the compat shims use.
 *
 * @throws ConfigError (`CONFIG_INVALID`) naming what is wrong: a database that cannot be
 * reached (or, with `migrate: false`, whose schema is behind), a weak or missing secret key,
 * bad quotas, limits or prices, in the options or in the environment variables they default to.
 *
 * @example
 * ```ts
 * const stack = await openAgentStack({
 *   url: 'postgres://agent@db.internal/agent', // default: SQLite under MCP_AGENT_HOME
 *   quotas: { maxCallsPerHour: 600 },
 *   rateLimits: { default: { ratePerSecond: 2, burst: 10 } },
 * });
 * try {
 *   const result = await stack.agent.executeTask('Find the page on SSO', 'alice');
 *   console.log(result.answer);
 * } finally {
 *   await stack.close();
 * }
 * ```
 */
export async function openAgentStack(options: OpenAgentStackOptions = {}): Promise<AgentStack> {
  const registry = await openRegistry(options);
  // Local development against an http or loopback authorisation server opts in explicitly.
  const oauth = new OAuthService(registry, {
    allowPrivateNetwork: (options.env ?? process.env).MCP_AGENT_OAUTH_ALLOW_PRIVATE === '1',
  });
  const pool = new ConnectionPool(registry, {
    oauth,
    // Proxies, certificate authorities and npm's cache reach stdio servers (MCP_AGENT_PASS_ENV).
    passEnv: passedEnvFrom(options.env ?? process.env),
    ...(options.logger ? { logger: options.logger } : {}),
    ...options.pool,
  });
  const knowledge = new Knowledge({ registry, ...options.knowledge });
  const dispatcher = new Dispatcher({
    observations: new MemoryObservationStore(),
    ...options.dispatcher,
    links: [
      // Every call traced and logged (tool, caller, outcome, duration; never arguments or results).
      ...(options.dispatcher?.links ?? [telemetryLink, loggingLink]),
      ...(options.rateLimits === undefined
        ? []
        : [rateLimitLink(options.rateLimits, registry.rateLimitCounter)]),
      quotaLink(registry),
      usageLink(registry),
    ],
    registry,
    pool,
  });
  const sandbox =
    options.sandbox === false ? undefined : (options.sandbox ?? new IsolatedVmSandbox());
  // `connectors` was the name of `serverAgents` before issue 31: still obeyed, with a warning.
  const serverAgents = renamedOption(
    options,
    'serverAgents',
    'connectors',
    'OpenAgentStackOptions',
  );
  const agent = new Agent({
    registry,
    pool,
    knowledge,
    dispatcher,
    ...(sandbox === undefined ? {} : { sandbox }),
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(serverAgents === undefined ? {} : { serverAgents }),
    ...(options.prices === undefined ? {} : { prices: options.prices }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  });
  return {
    agent,
    registry,
    pool,
    knowledge,
    dispatcher,
    sandbox,
    oauth,
    async close() {
      knowledge.close();
      await sandbox?.dispose();
      await pool.close();
      await registry.close();
    },
  };
}
