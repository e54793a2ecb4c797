import type { Logger, ServerConfig } from '@mcp-agent/core';
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
  readonly appServers?: readonly ServerConfig[];
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
  readonly model?: ModelClient;
  readonly logger?: Logger;
  readonly connectors?: boolean;
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

/** Everything an application holds: close it once, at shutdown. */
export interface AgentStack {
  readonly agent: Agent;
  readonly registry: Registry;
  readonly pool: ConnectionPool;
  readonly knowledge: Knowledge;
  readonly dispatcher: Dispatcher;
  readonly sandbox: Sandbox | undefined;
  readonly oauth: OAuthService;
  /** Closes the connections, the sandbox, the knowledge index and the database, in that order. */
  close(): Promise<void>;
}

/**
 * Opens the whole stack on the defaults (the embedded SQLite registry under `MCP_AGENT_HOME`,
 * stdio servers given the host's proxy, certificate and npm variables (`MCP_AGENT_PASS_ENV`),
 * a connection pool, knowledge, a dispatcher with an observation store, the sandbox) and the
 * agent over it: what the CLI, the server and the compat shims use.
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
  const agent = new Agent({
    registry,
    pool,
    knowledge,
    dispatcher,
    ...(sandbox === undefined ? {} : { sandbox }),
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.connectors === undefined ? {} : { connectors: options.connectors }),
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
