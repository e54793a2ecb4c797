import type { KyselyPlugin } from 'kysely';
import { ConfigError, type Logger, silentLogger, type ServerConfig } from '@mcp-agent/core';
import { openDatabase, resolveHome } from './database/open-database.js';
import { parseQuotaLimits, type QuotaLimits } from './quota-limits.js';
import { Registry } from './registry.js';
import type { UserServerPolicy } from './user-server-policy.js';
import { loadKeyring } from './vault/secret-key.js';

/** Options of {@link openRegistry}; each defaults to its environment variable. */
export interface OpenRegistryOptions {
  /** `MCP_AGENT_DATABASE_URL`: `postgres://…`, a SQLite path, or `:memory:`. */
  readonly url?: string;
  /** `MCP_AGENT_HOME`, default `~/.mcp-agent`: the SQLite file and key file live here. */
  readonly home?: string;
  /** PostgreSQL schema (tests use one per suite). */
  readonly schema?: string;
  /** Where `MCP_AGENT_SECRET_KEY` and friends are read; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly appServers?: readonly ServerConfig[];
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
  /** SQLite only: how long a write waits for another process's lock; see `openDatabase`. */
  readonly lockTimeoutMs?: number;
}

/**
 * Opens the registry the way an application does: the database (migrated), the secret key
 * (refusing a weak or, for PostgreSQL, a missing one), and the app servers.
 */
export async function openRegistry(options: OpenRegistryOptions = {}): Promise<Registry> {
  const home = resolveHome(options.home);
  const quotas = options.quotas ?? quotasFromEnv((options.env ?? process.env).MCP_AGENT_QUOTAS);
  const database = await openDatabase({
    ...(options.url === undefined ? {} : { url: options.url }),
    home,
    ...(options.schema === undefined ? {} : { schema: options.schema }),
    ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
  });
  try {
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
    return new Registry({
      db: (options.plugins ?? []).reduce((db, plugin) => db.withPlugin(plugin), database.db),
      keyring,
      ...(options.appServers === undefined ? {} : { appServers: options.appServers }),
      ...(options.userServers === undefined ? {} : { userServers: options.userServers }),
      quotas,
      home,
      onClose: () => database.close(),
    });
  } catch (error) {
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
