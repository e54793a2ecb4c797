import { EventEmitter } from 'node:events';
import type { AgentContext } from '@mcp-agent/core';
import type { RegistryEvents, ServerChange } from './changes/registry-events.js';
import type { Executor } from './database/executor.js';
import type { QuotaLimits, UserQuotaLimits } from './limits/quota-limits.js';
import type { RateLimitCounter } from './limits/rate-limit.js';
import { RateLimitRepository } from './limits/rate-limit-repository.js';
import { AccountRepository } from './repositories/accounts.js';
import {
  AuditLogRepository,
  type AuditEntry,
  type AuditQuery,
  type AuditRecord,
  type AuditRetention,
} from './repositories/audit-log.js';
import { AuthConfigRepository } from './repositories/auth-configs.js';
import { ConnectionRepository, type ConnectionRecord } from './repositories/connections.js';
import { EmbeddingCacheRepository } from './repositories/embedding-cache.js';
import { QuotaRepository, type QuotaStatus } from './repositories/quotas.js';
import { SecretRepository } from './repositories/secrets.js';
import { ThreadRepository } from './repositories/threads.js';
import { ToolCatalogRepository, type CatalogTool } from './repositories/tool-catalog.js';
import type {
  ModelUsageRecord,
  TaskUsage,
  ToolCallRecord,
  UsageSummary,
} from './repositories/usage-records.js';
import { UsageRepository } from './repositories/usage.js';
import { UserRepository } from './repositories/users.js';
import { GatewaySessionRepository } from './sessions/gateway-session-repository.js';
import { TaskStore } from './tasks/task-store.js';
import { CredentialVault } from './vault/credential-vault.js';
import type { Keyring } from './vault/secret-key.js';

/**
 * The store's repositories: for the registry's own modules (the OAuth flows, the pool) and its
 * tests, never exported from the package root — callers use `TenantStore`'s methods.
 */
export interface Repositories {
  /** The tenant rows; written on a tenant's first write. */
  readonly users: UserRepository;
  /** Encrypted secrets by owner row and field; plaintext only through the vault. */
  readonly secrets: SecretRepository;
  /** How each tenant authenticates to each server (`none`, `static`, `oauth`). */
  readonly authConfigs: AuthConfigRepository;
  /** Each tenant's OAuth accounts at servers, and their encrypted tokens. */
  readonly accounts: AccountRepository;
  /**
   * Each tenant's server rows (definitions without secret values, readiness). Add, remove and
   * enable servers through `Registry` instead: it checks the policy, audits and announces.
   */
  readonly connections: ConnectionRepository;
  /** The cached tool list of each server, versioned; refresh it through `replaceCatalog`. */
  readonly catalog: ToolCatalogRepository;
  /** The servers activated in each conversation: a thread with activations narrows to them. */
  readonly threads: ThreadRepository;
  /** Quotas: limits per deployment and tenant, counted in the database. */
  readonly quotas: QuotaRepository;
  /** Usage and estimated cost per tenant, task, model and server. */
  readonly usage: UsageRepository;
  /** Encrypts and decrypts secrets with the keyring (AES-256-GCM, bound to tenant and row). */
  readonly vault: CredentialVault;
  /** Rate limits counted in the database, so they hold across processes. */
  readonly rateLimits: RateLimitRepository;
  /** Who did what to whose servers, per tenant, within a bounded retention. */
  readonly audit: AuditLogRepository;
}

// Every kind of change to one of a tenant's servers: its definition, readiness or catalog.
const SERVER_CHANGE_KINDS = [
  'server-registered',
  'server-updated',
  'server-removed',
  'state-changed',
  'catalog-changed',
] as const satisfies readonly (keyof RegistryEvents)[];

// Set in TenantStore's static block, the one place that may read its protected repositories.
let repositoriesOfStore: (store: TenantStore) => Repositories;

/** The repositories of `store` (see {@link Repositories}: the registry's own modules only). */
export function repositoriesOf(store: TenantStore): Repositories {
  return repositoriesOfStore(store);
}

/**
 * The tenant store: every repository over one database, each method taking the context and
 * touching only its tenant's rows. `Registry` is this plus the rules for servers (tiers,
 * policy, availability, announcing changes). Callers use its methods, named for what they do
 * (and `tasks` for durable tasks), never a repository.
 */
export class TenantStore {
  /** The tenant rows; written on a tenant's first write, never needed by callers directly. */
  protected readonly users: UserRepository;
  /** Encrypted secrets by owner row and field; plaintext only through the vault. */
  protected readonly secrets: SecretRepository;
  /** How each tenant authenticates to each server (`none`, `static`, `oauth`). */
  protected readonly authConfigs: AuthConfigRepository;
  /** Each tenant's OAuth accounts at servers, and their encrypted tokens. */
  protected readonly accounts: AccountRepository;
  /**
   * Each tenant's server rows (definitions without secret values, readiness). Add, remove and
   * enable servers through `Registry` instead: it checks the policy, audits and announces.
   */
  protected readonly connections: ConnectionRepository;
  /** The cached tool list of each server, versioned; refresh it through `replaceCatalog`. */
  protected readonly catalog: ToolCatalogRepository;
  /** The servers activated in each conversation: a thread with activations narrows to them. */
  protected readonly threads: ThreadRepository;
  /** Embedding vectors by content hash and model, shared by every tenant (not tenant rows). */
  readonly embeddings: EmbeddingCacheRepository;
  /**
   * Changes of servers, credentials, catalogs and readiness: the registry's own, and, through
   * the change feed, other processes'.
   */
  readonly events = new EventEmitter<RegistryEvents>();
  /** Quotas: limits per deployment and tenant, counted in the database. */
  protected readonly quotas: QuotaRepository;
  /** Usage and estimated cost per tenant, task, model and server. */
  protected readonly usage: UsageRepository;
  /** Encrypts and decrypts secrets with the keyring (AES-256-GCM, bound to tenant and row). */
  protected readonly vault: CredentialVault;
  /** Durable tasks of each tenant, with their events, and their processes' leases. */
  readonly tasks: TaskStore;
  /**
   * Gateway sessions any process can serve: each session's user, client, described tools and
   * search scope, admitted under the per-user cap counted over every process.
   */
  readonly gatewaySessions: GatewaySessionRepository;
  /** Rate limits counted in the database, so they hold across processes. */
  protected readonly rateLimits: RateLimitRepository;
  /** Who did what to whose servers, per tenant, within a bounded retention. */
  protected readonly audit: AuditLogRepository;

  static {
    repositoriesOfStore = (store) => ({
      users: store.users,
      secrets: store.secrets,
      authConfigs: store.authConfigs,
      accounts: store.accounts,
      connections: store.connections,
      catalog: store.catalog,
      threads: store.threads,
      quotas: store.quotas,
      usage: store.usage,
      vault: store.vault,
      rateLimits: store.rateLimits,
      audit: store.audit,
    });
  }

  /**
   * `db`: the handle whose writes change what servers a tenant may use (a registry observes it);
   * `raw`: the same database for counting (usage, quotas, tasks, rate limits), which changes no
   * server's availability.
   */
  constructor(
    db: Executor,
    raw: Executor,
    keyring: Keyring,
    quotas?: QuotaLimits,
    auditRetention?: AuditRetention,
  ) {
    this.vault = new CredentialVault(keyring);
    this.users = new UserRepository(db);
    this.secrets = new SecretRepository(db, this.vault);
    this.authConfigs = new AuthConfigRepository(db, this.users);
    this.accounts = new AccountRepository(db, this.users, this.secrets);
    this.connections = new ConnectionRepository(db, this.users, this.secrets);
    this.catalog = new ToolCatalogRepository(db);
    this.threads = new ThreadRepository(db, this.users);
    this.embeddings = new EmbeddingCacheRepository(db);
    // Counting usage, tasks and rate limits changes no server's availability: these write past
    // the observer, so a task's own events do not make its availability stale.
    this.quotas = new QuotaRepository(raw, quotas);
    this.usage = new UsageRepository(raw, this.quotas);
    this.tasks = new TaskStore(raw);
    // Sessions change no server's availability: past the observer, like tasks.
    this.gatewaySessions = new GatewaySessionRepository(raw);
    this.rateLimits = new RateLimitRepository(raw);
    this.audit = new AuditLogRepository(raw, auditRetention);
  }

  /**
   * True when the tenant can use `serverId` as far as credentials go: no auth or static
   * secrets configured, or OAuth with an active account and stored tokens.
   */
  async isAuthorized(ctx: AgentContext, serverId: string): Promise<boolean> {
    const config = await this.authConfigs.find(ctx, serverId);
    if (config === undefined || config.kind !== 'oauth') return true;
    const account = await this.accounts.find(ctx, serverId);
    if (account?.status !== 'active') return false;
    return (await this.accounts.getSecret(ctx, serverId, 'oauth_tokens')) !== undefined;
  }

  /**
   * Calls `listener` with the tenant and server of every change to one of its servers (its
   * definition, readiness or catalog), made here or in another process; returns the function
   * that stops it. What a cache of anything derived from a server listens to.
   */
  onServerChange(listener: (change: ServerChange) => void): () => void {
    for (const kind of SERVER_CHANGE_KINDS) this.events.on(kind, listener);
    return () => {
      for (const kind of SERVER_CHANGE_KINDS) this.events.off(kind, listener);
    };
  }

  /** The tenant's stored row of `serverId` (a user server, or an app server's state), if any. */
  storedServer(ctx: AgentContext, serverId: string): Promise<ConnectionRecord | undefined> {
    return this.connections.find(ctx, serverId);
  }

  /** The tenant's stored server rows: its own servers, and the app servers it has state for. */
  storedServers(ctx: AgentContext): Promise<ConnectionRecord[]> {
    return this.connections.list(ctx);
  }

  /** The stored tools of `serverId`, by name; empty when never discovered or not found. */
  storedTools(ctx: AgentContext, serverId: string): Promise<CatalogTool[]> {
    return this.catalog.list(ctx, serverId);
  }

  /** The stored tools of several servers in one query, each list sorted by name. */
  storedToolsOf(
    ctx: AgentContext,
    serverIds: readonly string[],
  ): Promise<Map<string, CatalogTool[]>> {
    return this.catalog.listMany(ctx, serverIds);
  }

  /**
   * Before a tool call of `serverId`: counts it against the tenant's quotas (calls per hour,
   * servers per thread or per task). Throws `QuotaExceededError` when a limit is reached.
   */
  admitToolCall(
    ctx: AgentContext,
    serverId: string,
    options: { threadId?: string | undefined; taskServers?: Set<string> } = {},
  ): Promise<void> {
    return this.quotas.beforeToolCall(ctx, serverId, options);
  }

  /**
   * {@link admitToolCall} when it needs no wait: true when the call was admitted and counted now
   * (the tenant's limits are known and a held call was spent, or none applies); false, having
   * counted nothing, when `admitToolCall` must be awaited. The dispatcher's quota link asks this
   * first, so that a call's way to its server has no await.
   */
  admitToolCallNow(
    ctx: AgentContext,
    options: { threadId?: string | undefined; taskServers?: Set<string> } = {},
  ): boolean {
    return this.quotas.admitNow(ctx, options);
  }

  /** Before a model request: throws `QuotaExceededError` once the day's tokens are spent. */
  admitModelRequest(ctx: AgentContext): Promise<void> {
    return this.quotas.beforeModelRequest(ctx);
  }

  /**
   * Throws `QuotaExceededError` when a windowed quota of the tenant (the day's tokens, the
   * hour's calls) is used up, counting nothing: what a surface asks before it accepts a task.
   */
  checkQuotas(ctx: AgentContext): Promise<void> {
    return this.quotas.check(ctx);
  }

  /** What the tenant used this hour and today, against the limits in force. */
  quotaStatus(ctx: AgentContext): Promise<QuotaStatus> {
    return this.quotas.status(ctx);
  }

  /**
   * Sets the tenant's own quotas (an operator's act): a number replaces the deployment's limit,
   * `null` returns to it, a name left out keeps what was stored; returns them as stored.
   */
  setQuotaLimits(ctx: AgentContext, limits: UserQuotaLimits): Promise<UserQuotaLimits> {
    return this.quotas.setUserLimits(ctx, limits);
  }

  /** Records one tool call's outcome and duration (written behind, in batches). */
  recordToolCall(ctx: AgentContext, record: ToolCallRecord): Promise<void> {
    return this.usage.recordToolCall(ctx, record);
  }

  /** Records one model response's tokens and estimated cost, and counts its tokens in quotas. */
  recordModelUsage(ctx: AgentContext, record: ModelUsageRecord): Promise<void> {
    return this.usage.recordModel(ctx, record);
  }

  /** One task's recorded figures: each model and each server. */
  taskUsage(ctx: AgentContext, taskId: string): Promise<TaskUsage> {
    return this.usage.task(ctx, taskId);
  }

  /** The tenant's usage over the last `days` UTC days (today included; at most 366). */
  usageSummary(ctx: AgentContext, options: { days?: number } = {}): Promise<UsageSummary> {
    return this.usage.summary(ctx, options);
  }

  /** Rate limits counted in the database, so that they hold across processes. */
  get rateLimitCounter(): RateLimitCounter {
    return this.rateLimits;
  }

  /** Writes one act on the tenant's servers or tokens to its audit log. */
  recordAudit(ctx: AgentContext, entry: AuditRecord): Promise<void> {
    return this.audit.record(ctx, entry);
  }

  /** The tenant's audit log, newest first, a page at a time (see `AuditQuery`). */
  auditTrail(ctx: AgentContext, query: AuditQuery = {}): Promise<AuditEntry[]> {
    return this.audit.list(ctx, query);
  }

  /** Deletes audit entries past the retention, for every tenant; how many. */
  pruneAudit(now: number): Promise<number> {
    return this.audit.prune(now);
  }
}
