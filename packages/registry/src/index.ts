export type {
  ActiveServer,
  ActiveServersOptions,
  Exclusion,
  TierEntry,
} from './store/availability/active-servers.js';
export type { AccountRecord, AccountStatus } from './store/repositories/accounts.js';
export type { AuthConfigRecord, AuthKind } from './store/repositories/auth-configs.js';
export type { ToolFinding, ToolFindingKind } from './store/catalog/tool-findings.js';
export type {
  ConnectionRecord,
  ConnectionScope,
  ConnectionStateUpdate,
  ConnectionStatus,
  PublicServerConfig,
} from './store/repositories/connections.js';
export {
  EmbeddingCacheRepository,
  type EmbeddingEntry,
} from './store/repositories/embedding-cache.js';
export type { SecretOwner } from './store/repositories/secrets.js';
export type { CatalogTool, CatalogUpdate } from './store/repositories/tool-catalog.js';
export type { UserRecord } from './store/repositories/users.js';
export {
  type QuotaLimits,
  type QuotaName,
  type UserQuotaLimits,
} from './store/limits/quota-limits.js';
export type { QuotaStatus } from './store/repositories/quotas.js';
export { TASK_METER, TaskMeter } from './store/tasks/task-meter.js';
export {
  MAX_USAGE_DAYS,
  type ModelUsageRecord,
  type TaskUsage,
  type ToolCallRecord,
  type UsageSummary,
  type UsageTotals,
} from './store/repositories/usage-records.js';
export { migrateToLatest, type MigrationOptions } from './store/database/migrate.js';
export { migrations } from './store/database/migrations.js';
export {
  openDatabase,
  type DatabaseDialect,
  type OpenDatabase,
  type OpenDatabaseOptions,
} from './store/database/open-database.js';
export type { Database } from './store/database/schema.js';
export { openRegistry, type OpenRegistryOptions } from './open-registry.js';
export { AVAILABILITY, type ImportResult, type RegistryOptions } from './registry-options.js';
export { Registry } from './registry.js';
export {
  MULTI_TENANT_POLICY,
  SINGLE_USER_POLICY,
  type StdioAllowEntry,
  type UserServerPolicy,
} from './store/availability/user-server-policy.js';
export type { AllowedEnv, EnvValueRule } from './store/availability/user-server-policy-env.js';
export type { RegistryEvents, ServerChange } from './store/changes/registry-events.js';
export type { ChangeFeed, RegistryChange } from './store/changes/change-feed.js';
export {
  PostgresChangeFeed,
  type PostgresChangeFeedOptions,
} from './store/changes/postgres-change-feed.js';
export {
  SqliteChangeFeed,
  type SqliteChangeFeedOptions,
} from './store/changes/sqlite-change-feed.js';
export type {
  NewTask,
  StoredTaskEvent,
  StoredAdmission,
  TaskRecord,
} from './store/tasks/task-repository.js';
export type { LostTask } from './store/tasks/task-leases.js';
export { TaskStore } from './store/tasks/task-store.js';
export { GatewaySessionRepository } from './store/sessions/gateway-session-repository.js';
export type {
  GatewaySessionAdmission,
  GatewaySessionClient,
  GatewaySessionLimits,
  GatewaySessionRecord,
  GatewaySessionStore,
} from './store/sessions/gateway-session-store.js';
export type { RateLimit, RateLimitCounter, RateLimitVerdict } from './store/limits/rate-limit.js';
export { MemoryRateLimitCounter } from './store/limits/memory-rate-limits.js';
export {
  DEFAULT_AUDIT_RETENTION,
  type AuditAction,
  type AuditEntry,
  type AuditQuery,
  type AuditRecord,
  type AuditRetention,
} from './store/repositories/audit-log.js';
export {
  Availability,
  type ServerAvailability,
  type ServerVerdict,
  type UnavailableCode,
} from './store/availability/availability.js';
export { toToolSpec } from './store/catalog/tool-spec.js';
export { CredentialVault, type SecretBinding } from './store/vault/credential-vault.js';
export { rotateSecrets, type RotationResult } from './store/vault/rotate-secrets.js';
export {
  keyId,
  loadKeyring,
  type Keyring,
  type LoadedKeyring,
  type LoadKeyringOptions,
  type SecretKey,
} from './store/vault/secret-key.js';
export {
  ConnectionPool,
  type ConnectionPoolEvents,
  type ServerStatus,
} from './connections/pool/connection-pool.js';
export type { ConnectionPoolOptions } from './connections/pool/pool-options.js';
export type {
  ConnectionMetrics,
  ConnectionState,
  ReadinessStatus,
} from './store/readiness/connection-state.js';
export { DEFAULT_PASSED_ENV, passedEnvFrom } from './connections/pool/passed-env.js';
export type { FinalStatus, ServerReport } from './connections/pool/server-report.js';
export { recordedStatus } from './connections/pool/server-report.js';
export {
  DEFAULT_MCP_REGISTRY_URL,
  McpRegistryClient,
  type McpRegistryClientOptions,
  type McpRegistryEntry,
  type McpRegistryInput,
  type McpRegistryPackage,
  type McpRegistryPage,
  type McpRegistryRemote,
} from './mcp-registry-client/mcp-registry-client.js';
export {
  serverConfigFromRegistry,
  type MissingInput,
  type RegistryServerConfig,
  type RegistryServerOptions,
} from './mcp-registry-client/registry-server-config.js';
export {
  type CallOptions,
  type ConnectionHooks,
  type ConnectionOptions,
} from './connections/pool/connection-options.js';
export type { ResourceListing } from './connections/pool/list-all-resources.js';
export { guardedFetch, type GuardedFetchOptions } from './connections/net/guarded-fetch.js';
export {
  OAuthService,
  type AuthorizedFetch,
  type OAuthServiceOptions,
} from './connections/oauth/oauth-service.js';
export { type StoredTokens } from './connections/oauth/vault-oauth-provider.js';
export { type TokenStore } from './connections/oauth/token-store.js';
export type { LaunchPlan, PoolStore, RecordedState } from './connections/pool/pool-store.js';
