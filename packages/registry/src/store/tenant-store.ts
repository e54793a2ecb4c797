import type { AgentContext } from '@mcp-agent/core';
import type { Executor } from './database/executor.js';
import type { QuotaLimits } from './limits/quota-limits.js';
import { RateLimitRepository } from './limits/rate-limit-repository.js';
import { AccountRepository } from './repositories/accounts.js';
import { AuditLogRepository, type AuditRetention } from './repositories/audit-log.js';
import { AuthConfigRepository } from './repositories/auth-configs.js';
import { ConnectionRepository } from './repositories/connections.js';
import { EmbeddingCacheRepository } from './repositories/embedding-cache.js';
import { QuotaRepository } from './repositories/quotas.js';
import { SecretRepository } from './repositories/secrets.js';
import { ThreadRepository } from './repositories/threads.js';
import { ToolCatalogRepository } from './repositories/tool-catalog.js';
import { UsageRepository } from './repositories/usage.js';
import { UserRepository } from './repositories/users.js';
import { TaskLeases } from './tasks/task-leases.js';
import { TaskRepository } from './tasks/task-repository.js';
import { CredentialVault } from './vault/credential-vault.js';
import type { Keyring } from './vault/secret-key.js';

/**
 * The tenant store: every repository over one database, each method taking the context and
 * touching only its tenant's rows. `Registry` is this plus the rules for servers (tiers,
 * policy, availability, change events); callers that need a table's own operations (usage
 * reports, quotas, durable tasks) reach its repository here.
 */
export class TenantStore {
  /** The tenant rows; written on a tenant's first write, never needed by callers directly. */
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
  /** Embedding vectors by content hash and model, shared by every tenant (not tenant rows). */
  readonly embeddings: EmbeddingCacheRepository;
  /** Quotas: limits per deployment and tenant, counted in the database. */
  readonly quotas: QuotaRepository;
  /** Usage and estimated cost per tenant, task, model and connector. */
  readonly usage: UsageRepository;
  /** Encrypts and decrypts secrets with the keyring (AES-256-GCM, bound to tenant and row). */
  readonly vault: CredentialVault;
  /** Durable tasks of each tenant, with their events (`tasks`), and their owners' leases. */
  readonly tasks: TaskRepository;
  /** Lease renewal, cancel requests and the sweep of lost tasks: per process, across tenants. */
  readonly taskLeases: TaskLeases;
  /** Rate limits counted in the database, so they hold across processes. */
  readonly rateLimits: RateLimitRepository;
  /** Who did what to whose servers, per tenant, within a bounded retention. */
  readonly audit: AuditLogRepository;

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
    this.tasks = new TaskRepository(raw);
    this.taskLeases = new TaskLeases(raw);
    this.rateLimits = new RateLimitRepository(raw);
    this.audit = new AuditLogRepository(raw, auditRetention);
  }

  /**
   * True when the tenant can use `providerId` as far as credentials go: no auth or static
   * secrets configured, or OAuth with an active account and stored tokens.
   */
  async isAuthorized(ctx: AgentContext, providerId: string): Promise<boolean> {
    const config = await this.authConfigs.find(ctx, providerId);
    if (config === undefined || config.kind !== 'oauth') return true;
    const account = await this.accounts.find(ctx, providerId);
    if (account?.status !== 'active') return false;
    return (await this.accounts.getSecret(ctx, providerId, 'oauth_tokens')) !== undefined;
  }
}
