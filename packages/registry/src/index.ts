export type { ActiveServer, ActiveServersOptions, Exclusion, TierEntry } from './active-servers.js';
export type { AccountRecord, AccountStatus } from './repositories/accounts.js';
export type { AuthConfigRecord, AuthKind } from './repositories/auth-configs.js';
export type { ToolFinding, ToolFindingKind } from './catalog/tool-findings.js';
export type {
  ConnectionRecord,
  ConnectionScope,
  ConnectionStateUpdate,
  ConnectionStatus,
  PublicServerConfig,
} from './repositories/connections.js';
export { EmbeddingCacheRepository, type EmbeddingEntry } from './repositories/embedding-cache.js';
export type { SecretOwner } from './repositories/secrets.js';
export type { CatalogTool, CatalogUpdate } from './repositories/tool-catalog.js';
export type { UserRecord } from './repositories/users.js';
export { type QuotaLimits, type QuotaName, type UserQuotaLimits } from './quota-limits.js';
export { QuotaRepository, type QuotaStatus } from './repositories/quotas.js';
export { TASK_METER, TaskMeter } from './task-meter.js';
export {
  MAX_USAGE_DAYS,
  UsageRepository,
  type ModelUsageRecord,
  type ToolCallRecord,
  type UsageSummary,
  type UsageTotals,
} from './repositories/usage.js';
export { migrateToLatest, type MigrationOptions } from './database/migrate.js';
export { migrations } from './database/migrations.js';
export {
  openDatabase,
  type DatabaseDialect,
  type OpenDatabase,
  type OpenDatabaseOptions,
} from './database/open-database.js';
export type { Database } from './database/schema.js';
export { openRegistry, type OpenRegistryOptions } from './open-registry.js';
export { AVAILABILITY, Registry, type ImportResult, type RegistryOptions } from './registry.js';
export {
  MULTI_TENANT_POLICY,
  SINGLE_USER_POLICY,
  type StdioAllowEntry,
  type UserServerPolicy,
} from './user-server-policy.js';
export type { AllowedEnv, EnvValueRule } from './user-server-policy-env.js';
export type { RegistryEvents, ServerChange } from './registry-events.js';
export type { ChangeFeed, RegistryChange } from './changes/change-feed.js';
export {
  PostgresChangeFeed,
  type PostgresChangeFeedOptions,
} from './changes/postgres-change-feed.js';
export { SqliteChangeFeed, type SqliteChangeFeedOptions } from './changes/sqlite-change-feed.js';
export {
  TaskRepository,
  type NewTask,
  type StoredTaskEvent,
  type TaskAdmission,
  type TaskRecord,
} from './tasks/task-repository.js';
export { TaskLeases, type LostTask } from './tasks/task-leases.js';
export type { RateLimit, RateLimitCounter, RateLimitVerdict } from './limits/rate-limit.js';
export { MemoryRateLimitCounter } from './limits/memory-rate-limits.js';
export {
  Availability,
  type ServerAvailability,
  type ServerVerdict,
  type UnavailableCode,
} from './availability.js';
export { toToolSpec } from './catalog/tool-spec.js';
export { CredentialVault, type SecretBinding } from './vault/credential-vault.js';
export { rotateSecrets, type RotationResult } from './vault/rotate-secrets.js';
export {
  keyId,
  loadKeyring,
  type Keyring,
  type LoadedKeyring,
  type LoadKeyringOptions,
  type SecretKey,
} from './vault/secret-key.js';
export {
  ConnectionPool,
  type ConnectionPoolEvents,
  type ConnectionPoolOptions,
  type ServerStatus,
} from './pool/connection-pool.js';
export type {
  ConnectionMetrics,
  ConnectionState,
  ReadinessStatus,
} from './pool/connection-state.js';
export { deliverProgressBeforeResponses } from './pool/ordered-progress.js';
export {
  ProcessTransport,
  type ProcessExit,
  type ProcessTransportOptions,
} from './pool/process-transport.js';
export { DEFAULT_PASSED_ENV, passedEnvFrom } from './pool/passed-env.js';
export type { FinalStatus, ServerReport } from './pool/server-report.js';
export {
  DEFAULT_MCP_REGISTRY_URL,
  McpRegistryClient,
  type McpRegistryClientOptions,
  type McpRegistryEntry,
  type McpRegistryInput,
  type McpRegistryPackage,
  type McpRegistryPage,
  type McpRegistryRemote,
} from './mcp-registry/mcp-registry-client.js';
export {
  serverConfigFromRegistry,
  type MissingInput,
  type RegistryServerConfig,
  type RegistryServerOptions,
} from './mcp-registry/registry-server-config.js';
export {
  type CallOptions,
  type ConnectionHooks,
  type ConnectionOptions,
} from './pool/pooled-connection.js';
export type { ResourceListing } from './pool/list-all-resources.js';
export { guardedFetch, type GuardedFetchOptions } from './net/guarded-fetch.js';
export {
  OAuthService,
  type AuthorizedFetch,
  type OAuthServiceOptions,
} from './oauth/oauth-service.js';
export { type StoredTokens } from './oauth/vault-oauth-provider.js';
export { type TokenStore } from './oauth/token-store.js';
export type { LaunchPlan, PoolStore } from './pool/pool-store.js';
