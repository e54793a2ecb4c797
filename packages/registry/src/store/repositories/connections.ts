import { randomUUID } from 'node:crypto';
import {
  parseServerConfig,
  ServerNotFoundError,
  type AgentContext,
  type ServerConfig,
  compareText,
} from '@mcp-agent/core';
import type { McpConnectionsTable } from '../database/schema.js';
import type { Executor } from '../database/executor.js';
import type { SecretRepository } from './secrets.js';
import { timestamp } from '../database/timestamp.js';
import type { UserRepository } from './users.js';

/** Where a connection's definition comes from. */
export type ConnectionScope = 'app' | 'user';

/** Readiness and auth states a connection is recorded in. */
export type ConnectionStatus = 'pending' | 'connecting' | 'ready' | 'failed' | 'needs_auth';

/** A connection row, with its config minus secret values. */
export interface ConnectionRecord {
  /** The row's own id (a UUID): what the vault binds this server's secrets to. */
  readonly id: string;
  /** The server's id within the tenant. */
  readonly serverId: string;
  /** `user`: the tenant's own server; `app`: a row holding only an app server's state. */
  readonly scope: ConnectionScope;
  /** How the server is reached: a child process (`stdio`) or a URL. */
  readonly transport: ServerConfig['transport'];
  /** The definition with env and header values removed (names kept). */
  readonly config: PublicServerConfig;
  /** False when the tenant turned it off: kept, but out of every request. */
  readonly enabled: boolean;
  /** Last recorded readiness or auth state; `pending` again after the definition changes. */
  readonly status: ConnectionStatus;
  /** Why the last attempt failed; `null` after a success or a change of definition. */
  readonly lastError: string | null;
  /** Failed connection attempts in a row; reset by a success or a change of definition. */
  readonly attempts: number;
  /** When the tool list was last discovered (ISO 8601 UTC); `null` before the first time. */
  readonly lastSyncAt: string | null;
  /** `null` until a discovery succeeded; `0` when the server listed no tools. */
  readonly toolCount: number | null;
  /** Version of the cached tool list, bumped on each change; `0` before the first discovery. */
  readonly catalogVersion: number;
  /** When the row was created (ISO 8601 UTC). */
  readonly createdAt: string;
  /** When the row last changed (ISO 8601 UTC), a state change included. */
  readonly updatedAt: string;
}

/** A server definition as stored: secret values replaced by the names they are kept under. */
export type PublicServerConfig = Omit<ServerConfig, 'env' | 'headers'> & {
  /** Names of the environment variables it sets; their values are in the vault. */
  readonly envNames?: readonly string[];
  /** Names of the HTTP headers it sends; their values are in the vault. */
  readonly headerNames?: readonly string[];
};

/** A state change recorded by the pool or OAuth flows. */
export interface ConnectionStateUpdate {
  /** The new state. */
  readonly status: ConnectionStatus;
  /** Why it failed, for `failed` or `needs_auth`; `null` clears it; absent keeps the stored one. */
  readonly lastError?: string | null;
  /** Failed attempts in a row so far; absent keeps the stored count. */
  readonly attempts?: number;
  /** Tools listed by the discovery that led here; absent keeps the stored count. */
  readonly toolCount?: number | null;
  /** When that discovery ran (ISO 8601 UTC); absent keeps the stored time. */
  readonly lastSyncAt?: string | null;
}

const ENV_FIELD = 'env:';
const HEADER_FIELD = 'header:';

/** MCP connections of one tenant; env and header values live in the vault, never in `config`. */
export class ConnectionRepository {
  constructor(
    private readonly db: Executor,
    private readonly users: UserRepository,
    private readonly secrets: SecretRepository,
  ) {}

  /**
   * Creates or replaces a user-scope server (validating it first: a bad config is a
   * `ConfigError` and nothing is written). Secrets go to the vault in the same transaction.
   */
  async upsertUserServer(
    ctx: AgentContext,
    input: unknown,
    db?: Executor,
  ): Promise<ConnectionRecord> {
    const config = parseServerConfig(input);
    const run = async (trx: Executor) => {
      await this.users.upsert(ctx, trx);
      const now = timestamp(ctx);
      // What a new row and a replaced one both get: a changed definition must be connected and
      // discovered again.
      const definition = {
        scope: 'user',
        transport: config.transport,
        config: JSON.stringify(toPublic(config)),
        enabled: config.enabled ? 1 : 0,
        status: 'pending',
        last_error: null,
        attempts: 0,
        updated_at: now,
      } as const;
      const row = await trx
        .insertInto('mcp_connections')
        .values({
          id: randomUUID(),
          user_id: ctx.userId,
          server_id: config.id,
          ...definition,
          last_sync_at: null,
          tool_count: null,
          catalog_version: 0,
          created_at: now,
        })
        .onConflict((oc) => oc.columns(['user_id', 'server_id']).doUpdateSet(definition))
        .returningAll()
        .executeTakeFirstOrThrow();
      const owner = { kind: 'connection', id: row.id } as const;
      await this.secrets.remove(ctx, owner, undefined, trx);
      for (const [field, value] of secretFields(config))
        await this.secrets.put(ctx, owner, field, value, trx);
      return toRecord(row);
    };
    return db ? run(db) : this.db.transaction().execute(run);
  }

  /** The tenant's row for `serverId`, or `undefined` (also for another tenant's id). */
  async find(ctx: AgentContext, serverId: string): Promise<ConnectionRecord | undefined> {
    const row = await this.db
      .selectFrom('mcp_connections')
      .selectAll()
      .where('user_id', '=', ctx.userId)
      .where('server_id', '=', serverId)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** The tenant's row for `serverId`; `ServerNotFoundError` when there is none. */
  async get(ctx: AgentContext, serverId: string): Promise<ConnectionRecord> {
    const record = await this.find(ctx, serverId);
    if (record === undefined) throw notFound(serverId);
    return record;
  }

  /** Sets whether a user server is enabled, in its row and its stored definition. */
  async setEnabled(ctx: AgentContext, serverId: string, enabled: boolean): Promise<void> {
    const record = await this.get(ctx, serverId);
    await this.db
      .updateTable('mcp_connections')
      .set({
        enabled: enabled ? 1 : 0,
        config: JSON.stringify({ ...record.config, enabled }),
        updated_at: timestamp(ctx),
      })
      .where('user_id', '=', ctx.userId)
      .where('server_id', '=', serverId)
      .execute();
  }

  /** Every row of the tenant, by server id. */
  async list(ctx: AgentContext): Promise<ConnectionRecord[]> {
    const rows = await this.db
      .selectFrom('mcp_connections')
      .selectAll()
      .where('user_id', '=', ctx.userId)
      .execute();
    return rows.map(toRecord).sort((a, b) => compareText(a.serverId, b.serverId));
  }

  /** Deletes a user server with its secrets and cached catalog; false when there was none. */
  async remove(ctx: AgentContext, serverId: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('mcp_connections')
        .select(['id'])
        .where('user_id', '=', ctx.userId)
        .where('server_id', '=', serverId)
        .executeTakeFirst();
      if (row === undefined) return false;
      await this.secrets.remove(ctx, { kind: 'connection', id: row.id }, undefined, trx);
      await trx
        .deleteFrom('tool_catalog')
        .where('user_id', '=', ctx.userId)
        .where('connection_id', '=', row.id)
        .execute();
      await trx
        .deleteFrom('mcp_connections')
        .where('user_id', '=', ctx.userId)
        .where('id', '=', row.id)
        .execute();
      return true;
    });
  }

  /**
   * Records readiness for a server: updates the row, or, for an app server this tenant has no
   * row for yet, creates an `app`-scope row from `appConfig`.
   */
  async recordState(
    ctx: AgentContext,
    serverId: string,
    update: ConnectionStateUpdate,
    appConfig?: ServerConfig,
  ): Promise<ConnectionRecord> {
    const now = timestamp(ctx);
    const changes: Partial<McpConnectionsTable> = { status: update.status, updated_at: now };
    if (update.lastError !== undefined) changes.last_error = update.lastError;
    if (update.attempts !== undefined) changes.attempts = update.attempts;
    if (update.toolCount !== undefined) changes.tool_count = update.toolCount;
    if (update.lastSyncAt !== undefined) changes.last_sync_at = update.lastSyncAt;
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('mcp_connections')
        .set(changes)
        .where('user_id', '=', ctx.userId)
        .where('server_id', '=', serverId)
        .returningAll()
        .executeTakeFirst();
      if (updated !== undefined) return toRecord(updated);
      if (appConfig === undefined || appConfig.id !== serverId) throw notFound(serverId);
      await this.users.upsert(ctx, trx);
      const row = await trx
        .insertInto('mcp_connections')
        .values({
          id: randomUUID(),
          user_id: ctx.userId,
          server_id: serverId,
          scope: 'app',
          transport: appConfig.transport,
          config: JSON.stringify(toPublic(appConfig)),
          enabled: 1,
          status: update.status,
          last_error: update.lastError ?? null,
          attempts: update.attempts ?? 0,
          last_sync_at: update.lastSyncAt ?? null,
          tool_count: update.toolCount ?? null,
          catalog_version: 0,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.columns(['user_id', 'server_id']).doUpdateSet(changes))
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRecord(row);
    });
  }

  /** The full definition of a user server, secrets decrypted, for the connection pool only. */
  async resolveUserServer(ctx: AgentContext, serverId: string): Promise<ServerConfig> {
    const record = await this.get(ctx, serverId);
    if (record.scope !== 'user') throw notFound(serverId);
    const secrets = await this.secrets.list(ctx, { kind: 'connection', id: record.id });
    const { envNames, headerNames, ...rest } = record.config;
    const pick = (prefix: string, names: readonly string[] = []) =>
      Object.fromEntries(names.map((name) => [name, secrets.get(prefix + name) ?? '']));
    const full =
      rest.transport === 'stdio'
        ? { ...rest, env: pick(ENV_FIELD, envNames) }
        : { ...rest, headers: pick(HEADER_FIELD, headerNames) };
    return parseServerConfig(full);
  }
}

/** The definition with env and header values removed. */
export function toPublic(config: ServerConfig): PublicServerConfig {
  if (config.transport === 'stdio') {
    const { env, ...rest } = config;
    return { ...rest, envNames: Object.keys(env) };
  }
  const { headers, ...rest } = config;
  return { ...rest, headerNames: Object.keys(headers) };
}

function secretFields(config: ServerConfig): [string, string][] {
  return config.transport === 'stdio'
    ? Object.entries(config.env).map(([k, v]) => [ENV_FIELD + k, v])
    : Object.entries(config.headers).map(([k, v]) => [HEADER_FIELD + k, v]);
}

function toRecord(row: McpConnectionsTable): ConnectionRecord {
  return {
    id: row.id,
    serverId: row.server_id,
    scope: row.scope,
    transport: row.transport as ServerConfig['transport'],
    config: JSON.parse(row.config) as PublicServerConfig,
    enabled: Number(row.enabled) === 1,
    status: row.status as ConnectionStatus,
    lastError: row.last_error,
    attempts: Number(row.attempts),
    lastSyncAt: row.last_sync_at,
    toolCount: row.tool_count === null ? null : Number(row.tool_count),
    catalogVersion: Number(row.catalog_version),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The one not-found every tenant gets, whether the id is missing or another tenant's. */
export function notFound(serverId: string): ServerNotFoundError {
  return new ServerNotFoundError(
    `No server "${serverId}" is connected for this user. Add it, or check the id with the list of servers.`,
    { details: { serverId } },
  );
}
