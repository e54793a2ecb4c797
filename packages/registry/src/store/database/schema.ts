import type { ColumnType } from 'kysely';

// Column conventions, identical on both dialects so one code path serves both: ids and
// timestamps are text (ISO 8601 UTC), JSON is text, booleans are integers 0/1.

/** A tenant. */
export interface UsersTable {
  id: string;
  created_at: string;
  updated_at: string;
}

/** How a user authenticates to a server: `none`, `static` (secret headers/env) or `oauth`. */
export interface AuthConfigsTable {
  id: string;
  user_id: string;
  server_id: string;
  kind: 'none' | 'static' | 'oauth';
  /** Non-secret settings as JSON (scopes, client id, authorization server). */
  settings: string;
  created_at: string;
  updated_at: string;
}

/** A user's account at a server, as far as authorisation goes. */
export interface ConnectedAccountsTable {
  id: string;
  user_id: string;
  server_id: string;
  status: 'active' | 'needs_auth' | 'disconnected';
  provider_uid: string | null;
  created_at: string;
  updated_at: string;
}

/** A user's MCP server (scope `user`) or their state for an app server (scope `app`). */
export interface McpConnectionsTable {
  id: string;
  user_id: string;
  server_id: string;
  scope: 'app' | 'user';
  transport: string;
  /** The server config as JSON with env and header values left out (they are secrets). */
  config: string;
  enabled: number;
  status: string;
  last_error: string | null;
  attempts: number;
  last_sync_at: string | null;
  tool_count: number | null;
  catalog_version: number;
  created_at: string;
  updated_at: string;
}

/** One cached tool of one connection, as the server listed it. */
export interface ToolCatalogTable {
  user_id: string;
  connection_id: string;
  tool_name: string;
  /** The raw MCP tool object as JSON. */
  raw: string;
  /** SHA-256 over the canonical JSON of the whole raw tool. */
  content_hash: string;
  catalog_version: number;
  discovered_at: string;
}

/** The servers activated in one conversation. */
export interface ThreadActivationsTable {
  user_id: string;
  thread_id: string;
  server_id: string;
  created_at: string;
}

/** An encrypted secret, bound by its AAD to (user, owner, field). */
export interface SecretsTable {
  id: string;
  user_id: string;
  owner_kind: 'connection' | 'account' | 'auth_config';
  owner_id: string;
  field: string;
  /** `v1.<keyId>.<nonce>.<ciphertext>.<tag>`, base64url parts. */
  ciphertext: string;
  key_id: string;
  created_at: string;
  updated_at: string;
}

/**
 * One embedding vector of a text, by model: not a tenant's row. The key is what was embedded
 * (SHA-256 of the text) and by which model, so every tenant and process shares it.
 */
export interface EmbeddingCacheTable {
  model: string;
  content_hash: string;
  dimensions: number;
  /** Little-endian float32 values, base64. */
  vector: string;
  created_at: string;
  /** Last read or write: the least recently used rows are pruned first. */
  used_at: string;
}

/** A bigint column: PostgreSQL's driver reads it back as a string, SQLite's as a number. */
export type BigCount = ColumnType<number | string, number, number>;

/** One model's tokens and estimated cost in one task. */
export interface UsageModelsTable {
  user_id: string;
  task_id: string;
  model: string;
  /** The UTC day (YYYY-MM-DD) the task first used the model. */
  day: string;
  requests: BigCount;
  input_tokens: BigCount;
  output_tokens: BigCount;
  cache_read_tokens: BigCount;
  cache_write_tokens: BigCount;
  /** Billionths of a US dollar, from the price table; null when the model has no price. */
  cost_nanos: ColumnType<number | string | null, number | null, number | null>;
  created_at: string;
  updated_at: string;
}

/** One server's tool calls in one task. */
export interface UsageToolsTable {
  user_id: string;
  task_id: string;
  server: string;
  day: string;
  calls: BigCount;
  errors: BigCount;
  duration_ms: BigCount;
  created_at: string;
  updated_at: string;
}

/** A quota counter of one tenant in one window (an hour, a day) or one thread. */
export interface QuotaCountersTable {
  user_id: string;
  /** `calls_per_hour`, `tokens_per_day` or `servers_per_thread`. */
  counter: string;
  /** The window's start (ISO 8601 UTC), or the thread id for `servers_per_thread`. */
  window_key: string;
  used: BigCount;
  updated_at: string;
}

/** The servers a thread has called tools of, for `maxServersPerThread`. */
export interface QuotaThreadServersTable {
  user_id: string;
  thread_id: string;
  server_id: string;
  created_at: string;
}

/** A tenant's own quota limits; null inherits the deployment's. */
export interface UserQuotasTable {
  user_id: string;
  max_calls_per_hour: ColumnType<number | string | null, number | null, number | null>;
  max_tokens_per_day: ColumnType<number | string | null, number | null, number | null>;
  max_servers_per_thread: ColumnType<number | string | null, number | null, number | null>;
  updated_at: string;
}

/** A task started through a served surface: durable, readable from any process. */
export interface TasksTable {
  id: string;
  user_id: string;
  task: string;
  /** `running`, or how it ended (a `TaskStatus`). */
  status: string;
  /** The `MCPTaskResult` as JSON, once finished. */
  result: string | null;
  /** The process running it (`instanceId` of its `TaskLeases`). */
  owner: string;
  /** Past this, with no heartbeat from the owner, the task is failed as lost. */
  lease_until: string;
  /** Set by a cancel request from any process; the owner aborts the task when it sees it. */
  cancel_requested_at: string | null;
  /** Events stored, and events past the bound that were not. */
  event_count: number;
  events_dropped: number;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** One step event of a task, in order. */
export interface TaskEventsTable {
  user_id: string;
  task_id: string;
  seq: number;
  type: string;
  /** The `StepEvent` as JSON. */
  data: string;
  created_at: string;
}

/** The row locked while one of the user's tasks is admitted (the running-task cap). */
export interface TaskAdmissionsTable {
  user_id: string;
  /** Tasks admitted so far (bigint: a string on PostgreSQL). */
  admitted: number | string;
  updated_at: string;
}

/** A rate-limit bucket as GCRA keeps it: its theoretical arrival time, in microseconds. */
export interface RateLimitsTable {
  user_id: string;
  key: string;
  /** bigint: a string on PostgreSQL. */
  tat_us: number | string;
}

/** One registry change, for the processes that follow the log (`ChangeFeed`). */
export interface RegistryChangesTable {
  /** Assigned by the database (bigint: a string on PostgreSQL). */
  seq: ColumnType<number | string, never, never>;
  user_id: string;
  server_id: string;
  /** The registry event's name. */
  kind: string;
  scope: string;
  /** The rest of the event as JSON. */
  detail: string;
  /** The process that made the change. */
  origin: string;
  created_at: string;
}

/** One act on a tenant's servers (see `AuditLogRepository`). */
export interface AuditLogTable {
  /** Assigned by the database (bigint: a string on PostgreSQL). */
  seq: ColumnType<number | string, never, never>;
  /** The tenant whose servers were acted on. */
  user_id: string;
  /** Who acted: the tenant itself, or the operator acting for them. */
  actor: string;
  action: string;
  server_id: string | null;
  /** What else the act said, as JSON: never a secret. */
  detail: string;
  request_id: string;
  created_at: string;
}

/**
 * A gateway session, as any process needs it to serve the session's next request. Keyed by the
 * SHA-256 of the session id (the id itself is a handle a client presents, never stored).
 */
export interface GatewaySessionsTable {
  /** Hex SHA-256 of the `Mcp-Session-Id`. */
  id: string;
  user_id: string;
  /** The protocol version negotiated; '' until the initialize request was answered. */
  protocol_version: string;
  /** The initialize request's `capabilities` and `clientInfo`, as JSON. */
  client: string;
  /** What search_tools said it searches, last told to the client. */
  search_scope: string;
  created_at: string;
  /** Written behind (at most about once a minute per session): the idle expiry counts from it. */
  last_used_at: string;
}

/** The tools a gateway session described: one row each, so processes add without a conflict. */
export interface GatewaySessionToolsTable {
  user_id: string;
  /** `gateway_sessions.id`. */
  session_id: string;
  tool_id: string;
}

/** The row locked to admit a tenant's gateway session under the per-user cap. */
export interface GatewaySessionAdmissionsTable {
  user_id: string;
  admitted: number | string;
  updated_at: string;
}

/** The registry's tables by name, as Kysely's typed query builder sees them. */
export interface Database {
  /** Tenants: every other tenant row hangs off one of these. */
  users: UsersTable;
  /** How each tenant authenticates to each server (`none`, `static`, `oauth`), secrets aside. */
  auth_configs: AuthConfigsTable;
  /** Each tenant's OAuth accounts at servers, with their status. */
  connected_accounts: ConnectedAccountsTable;
  /** Each tenant's own servers, and its readiness state for app servers. */
  mcp_connections: McpConnectionsTable;
  /** The cached tool lists, one row per tool, versioned per connection. */
  tool_catalog: ToolCatalogTable;
  /** The servers activated in each conversation (thread). */
  thread_activations: ThreadActivationsTable;
  /** Encrypted secrets (env, headers, tokens), bound to tenant, owner row and field. */
  secrets: SecretsTable;
  /** Embedding vectors by model and text hash, shared by every tenant. */
  embedding_cache: EmbeddingCacheTable;
  /** Tokens and cost per task and model. */
  usage_models: UsageModelsTable;
  /** Tool calls, failures and time per task and server. */
  usage_tools: UsageToolsTable;
  /** Quota counts per tenant and window (hour, day) or thread. */
  quota_counters: QuotaCountersTable;
  /** The servers each thread has called, for `maxServersPerThread`. */
  quota_thread_servers: QuotaThreadServersTable;
  /** Tenants' own quota limits over the deployment's. */
  user_quotas: UserQuotasTable;
  /** Durable tasks with their result and owner's lease. */
  tasks: TasksTable;
  /** Each task's step events, in order, up to a bound. */
  task_events: TaskEventsTable;
  /** The row locked to admit a tenant's task under the running-task cap. */
  task_admissions: TaskAdmissionsTable;
  /** Rate-limit buckets (GCRA), per tenant and key. */
  rate_limits: RateLimitsTable;
  /** The change log other processes follow (`ChangeFeed`), pruned after its retention. */
  registry_changes: RegistryChangesTable;
  /** Who did what to whose servers, within a bounded retention. */
  audit_log: AuditLogTable;
  /** Gateway sessions any process can serve, until their idle expiry. */
  gateway_sessions: GatewaySessionsTable;
  /** The tools each gateway session described. */
  gateway_session_tools: GatewaySessionToolsTable;
  /** The row locked to admit a tenant's gateway session under the per-user cap. */
  gateway_session_admissions: GatewaySessionAdmissionsTable;
}
