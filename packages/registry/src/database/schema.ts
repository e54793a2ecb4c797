// Column conventions, identical on both dialects so one code path serves both: ids and
// timestamps are text (ISO 8601 UTC), JSON is text, booleans are integers 0/1.

/** A tenant. */
export interface UsersTable {
  id: string;
  created_at: string;
  updated_at: string;
}

/** How a user authenticates to a provider: `none`, `static` (secret headers/env) or `oauth`. */
export interface AuthConfigsTable {
  id: string;
  user_id: string;
  provider_id: string;
  kind: 'none' | 'static' | 'oauth';
  /** Non-secret settings as JSON (scopes, client id, authorization server). */
  settings: string;
  created_at: string;
  updated_at: string;
}

/** A user's account at a provider, as far as authorisation goes. */
export interface ConnectedAccountsTable {
  id: string;
  user_id: string;
  provider_id: string;
  status: 'active' | 'needs_auth' | 'disconnected';
  provider_uid: string | null;
  created_at: string;
  updated_at: string;
}

/** A user's MCP server (scope `user`) or their state for an app server (scope `app`). */
export interface McpConnectionsTable {
  id: string;
  user_id: string;
  provider_id: string;
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
  provider_id: string;
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

/** The whole database, for kysely. */
export interface Database {
  users: UsersTable;
  auth_configs: AuthConfigsTable;
  connected_accounts: ConnectedAccountsTable;
  mcp_connections: McpConnectionsTable;
  tool_catalog: ToolCatalogTable;
  thread_activations: ThreadActivationsTable;
  secrets: SecretsTable;
  embedding_cache: EmbeddingCacheTable;
}
