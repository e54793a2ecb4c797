import type { Kysely, KyselyPlugin } from 'kysely';
import { ConfigError, type Logger, silentLogger, type ServerConfig } from '@mcp-agent/core';
import { assertMigrated } from './store/database/migrate.js';
import { parseQuotaLimits, type QuotaLimits } from './store/limits/quota-limits.js';
import type { ChangeFeed } from './store/changes/change-feed.js';
import {
  PostgresChangeFeed,
  type PostgresChangeFeedOptions,
} from './store/changes/postgres-change-feed.js';
import { SqliteChangeFeed } from './store/changes/sqlite-change-feed.js';
import {
  databaseSchemaFromEnv,
  databaseUrlFromEnv,
  openDatabase,
  resolveHome,
} from './store/database/open-database.js';
import { Registry } from './registry.js';
import type { AuditRetention } from './store/repositories/audit-log.js';
import type { UserServerPolicy } from './store/availability/user-server-policy.js';
import { loadKeyring } from './store/vault/secret-key.js';

/** Options of {@link openRegistry}; each defaults to its environment variable. */
export interface OpenRegistryOptions {
  /** `MCP_AGENT_DATABASE_URL`: `postgres://…`, a SQLite path, or `:memory:`. */
  readonly url?: string;
  /** `MCP_AGENT_HOME`, default `~/.mcp-agent`: the SQLite file and key file live here. */
  readonly home?: string;
  /** PostgreSQL schema, default `MCP_AGENT_DATABASE_SCHEMA` or `public` (tests use one per suite). */
  readonly schema?: string;
  /** Where `MCP_AGENT_SECRET_KEY` and friends are read; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The operator's servers, visible to every user and never editable by users; default none. */
  readonly appServers?: readonly ServerConfig[];
  /** Where the registry warns (a created key file, a change feed's lost connection). */
  readonly logger?: Logger;
  /** What tenants may register as their own servers; default any command and URL. */
  readonly userServers?: UserServerPolicy;
  /** Kysely plugins every query passes through (tracing, counting). */
  readonly plugins?: readonly KyselyPlugin[];
  /**
   * The deployment's quotas; default `MCP_AGENT_QUOTAS` (JSON, e.g.
   * `{"maxCallsPerHour": 600, "maxTokensPerDay": 2000000}`), else none.
   */
  readonly quotas?: QuotaLimits;
  /** How much of the audit log is kept; default 90 days and 10,000 entries per tenant. */
  readonly auditRetention?: AuditRetention;
  /** SQLite only: how long a write waits for another process's lock; see `openDatabase`. */
  readonly lockTimeoutMs?: number;
  /**
   * Migrate the schema on open (default true). With false, a schema that is behind is refused
   * with what to run: for deployments that migrate once, before starting their processes.
   */
  readonly migrate?: boolean;
  /**
   * How registry changes cross processes: on PostgreSQL a `PostgresChangeFeed` by default
   * (LISTEN/NOTIFY over the change log), on a SQLite file a `SqliteChangeFeed` (`PRAGMA
   * data_version` once a second while connections are held, then the same log), on `:memory:`
   * none; `false` for none at all, settings of the default feed, or a feed of your own.
   */
  readonly changeFeed?:
    ChangeFeed | false | Pick<PostgresChangeFeedOptions, 'pollMs' | 'retentionMs' | 'origin'>;
}

/**
 * Opens the registry the way an application does: the database (migrated), the secret key
 * (refusing a weak or, for PostgreSQL, a missing one), and the app servers. The caller owns
 * the result: `close()` it to flush usage written behind and close the database.
 *
 * @throws ConfigError (`CONFIG_INVALID`) when the database cannot be opened or migrated, the
 *   schema is behind with `migrate: false`, the secret key is missing or weak, or
 *   `MCP_AGENT_QUOTAS` is invalid; whatever was opened is closed first.
 *
 * @example
 * ```ts
 * // SQLite under ~/.mcp-agent unless MCP_AGENT_DATABASE_URL says otherwise.
 * const registry = await openRegistry({
 *   appServers: [parseServerConfig({ id: 'memory', transport: 'stdio', command: 'mcp-memory' })],
 *   userServers: MULTI_TENANT_POLICY,
 * });
 * try {
 *   const alice = createContext({ userId: 'alice' });
 *   await registry.addServer(alice, {
 *     id: 'docs',
 *     transport: 'streamable-http',
 *     url: 'https://mcp.example.com/mcp',
 *   });
 *   const { usable } = await registry.availability(alice);
 * } finally {
 *   await registry.close();
 * }
 * ```
 */
export async function openRegistry(given: OpenRegistryOptions = {}): Promise<Registry> {
  const schema = given.schema ?? databaseSchemaFromEnv();
  const options = { ...given, ...(schema === undefined ? {} : { schema }) };
  const home = resolveHome(options.home);
  const quotas = options.quotas ?? quotasFromEnv((options.env ?? process.env).MCP_AGENT_QUOTAS);
  const database = await openDatabase({
    ...(options.url === undefined ? {} : { url: options.url }),
    home,
    ...(options.schema === undefined ? {} : { schema: options.schema }),
    ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
    ...(options.migrate === undefined ? {} : { migrate: options.migrate }),
  });
  let feed: ChangeFeed | undefined;
  try {
    if (options.migrate === false)
      await assertMigrated(database.db as Kysely<unknown>, {
        ...(options.schema === undefined || database.dialect !== 'postgres'
          ? {}
          : { schema: options.schema }),
      });
    const { keyring, createdKeyFile } = loadKeyring({
      home,
      dialect: database.dialect,
      ...(options.env === undefined ? {} : { env: options.env }),
    });
    if (createdKeyFile !== undefined) {
      (options.logger ?? silentLogger).warn(
        { keyFile: createdKeyFile },
        'created a new secret key file (mode 0600); back it up: secrets stored with it cannot be read without it',
      );
    }
    const given = options.changeFeed;
    if (given !== undefined && given !== false && 'publish' in given) feed = given;
    else if (given !== false && database.dialect === 'postgres')
      feed = new PostgresChangeFeed({
        ...given,
        url: options.url ?? databaseUrlFromEnv() ?? '',
        ...(options.schema === undefined ? {} : { schema: options.schema }),
        db: database.db,
        ...(options.logger === undefined ? {} : { logger: options.logger }),
      });
    else if (given !== false && database.location !== ':memory:')
      feed = new SqliteChangeFeed({
        ...given,
        db: database.db,
        ...(options.logger === undefined ? {} : { logger: options.logger }),
      });
    const registry = new Registry({
      db: (options.plugins ?? []).reduce((db, plugin) => db.withPlugin(plugin), database.db),
      keyring,
      ...(options.appServers === undefined ? {} : { appServers: options.appServers }),
      ...(options.userServers === undefined ? {} : { userServers: options.userServers }),
      quotas,
      ...(options.auditRetention === undefined ? {} : { auditRetention: options.auditRetention }),
      ...(feed === undefined ? {} : { changeFeed: feed }),
      home,
      onClose: () => database.close(),
    });
    await feed?.start();
    return registry;
  } catch (error) {
    await feed?.close().catch(() => undefined);
    await database.close();
    throw error;
  }
}

function quotasFromEnv(text: string | undefined): QuotaLimits {
  if (text === undefined || text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      `MCP_AGENT_QUOTAS is not JSON (${(error as Error).message}): set it like {"maxCallsPerHour": 600, "maxTokensPerDay": 2000000, "maxServersPerThread": 5}.`,
    );
  }
  return parseQuotaLimits(parsed, 'MCP_AGENT_QUOTAS');
}
