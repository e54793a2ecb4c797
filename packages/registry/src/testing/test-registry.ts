import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerConfig } from '@mcp-agent/core';
import { openRegistry, type OpenRegistryOptions } from '../open-registry.js';
import type { Registry } from '../registry.js';
import type { UserServerPolicy } from '../store/availability/user-server-policy.js';
import type { QuotaLimits } from '../store/limits/quota-limits.js';
import type { AuditRetention } from '../store/repositories/audit-log.js';

/** A database the contract suites run on. */
export interface TestDialect {
  readonly name: 'sqlite' | 'postgres';
  /** A fresh, empty, migrated registry (its own PostgreSQL schema), plus how to drop it. */
  open(options?: {
    appServers?: readonly ServerConfig[];
    env?: Record<string, string>;
    auditRetention?: AuditRetention;
  }): Promise<Registry>;
  /**
   * `count` registries on one fresh database, each with its own connection, as separate
   * processes would have (a SQLite file; a PostgreSQL schema, with change feeds); `close()`
   * closes them all and removes what they made.
   */
  openMany(count: number): Promise<SharedDatabase>;
  /** Two registries on one fresh database with the same options (quotas), as two processes. */
  openPair(options?: {
    quotas?: QuotaLimits;
  }): Promise<{ registries: [Registry, Registry]; close(): Promise<void> }>;
}

/** Registries on one test database (see {@link TestDialect.openMany}). */
export interface SharedDatabase {
  readonly registries: Registry[];
  /** The PostgreSQL schema, on PostgreSQL. */
  readonly schema?: string;
  /** One more registry on the same database, with options of its own; closed with the rest. */
  another(options?: Pick<OpenRegistryOptions, 'changeFeed' | 'quotas'>): Promise<Registry>;
  close(): Promise<void>;
}

/** A fresh key for a test: random, so no key is ever committed as a fixture. */
export function randomKey(): string {
  return randomBytes(32).toString('base64');
}

/** An in-memory SQLite registry with a random key: for tests of the packages above. */
export async function createTestRegistry(
  options: {
    appServers?: readonly ServerConfig[];
    env?: Record<string, string>;
    userServers?: UserServerPolicy;
    auditRetention?: AuditRetention;
  } = {},
): Promise<Registry> {
  return openRegistry({
    url: ':memory:',
    env: { MCP_AGENT_SECRET_KEY: randomKey(), ...options.env },
    ...(options.appServers === undefined ? {} : { appServers: options.appServers }),
    ...(options.userServers === undefined ? {} : { userServers: options.userServers }),
    ...(options.auditRetention === undefined ? {} : { auditRetention: options.auditRetention }),
  });
}

/**
 * The dialects to run contract suites on: SQLite always, PostgreSQL when
 * `MCP_AGENT_TEST_DATABASE_URL` is set. `skipped` says why PostgreSQL is missing, if it is.
 */
export function testDialects(): { dialects: TestDialect[]; skipped: string | undefined } {
  const dialects: Omit<TestDialect, 'openPair'>[] = [
    {
      name: 'sqlite',
      open: createTestRegistry,
      async openMany(count) {
        const home = mkdtempSync(join(tmpdir(), 'mcp-registry-many-'));
        const env = { MCP_AGENT_SECRET_KEY: randomKey() };
        const registries: Registry[] = [];
        const another = async (
          options: Pick<OpenRegistryOptions, 'changeFeed' | 'quotas'> = {},
        ) => {
          const registry = await openRegistry({
            url: join(home, 'registry.db'),
            home,
            env,
            ...options,
          });
          registries.push(registry);
          return registry;
        };
        for (let i = 0; i < count; i += 1) await another();
        return {
          registries: [...registries],
          another,
          async close() {
            await Promise.all(registries.map((registry) => registry.close()));
            rmSync(home, { recursive: true, force: true });
          },
        };
      },
    },
  ];
  const url = process.env.MCP_AGENT_TEST_DATABASE_URL;
  if (url === undefined || url === '') {
    return {
      dialects: dialects.map(withPair),
      skipped: 'PostgreSQL half skipped: set MCP_AGENT_TEST_DATABASE_URL=postgres://… to run it',
    };
  }
  dialects.push({
    name: 'postgres',
    open: async (options = {}) => {
      const schema = `test_${randomBytes(6).toString('hex')}`;
      const registry = await openRegistry({
        url,
        schema,
        env: { MCP_AGENT_SECRET_KEY: randomKey(), ...options.env },
        ...(options.appServers === undefined ? {} : { appServers: options.appServers }),
        ...(options.auditRetention === undefined ? {} : { auditRetention: options.auditRetention }),
      });
      // Dropped on close: kysely's migrator looks for its tables in every schema of the
      // database, so each schema left behind slows every later migration.
      const close = registry.close.bind(registry);
      registry.close = async () => {
        await close();
        await dropSchema(url, schema);
      };
      return registry;
    },
    async openMany(count) {
      const schema = `test_${randomBytes(6).toString('hex')}`;
      const env = { MCP_AGENT_SECRET_KEY: randomKey() };
      const registries: Registry[] = [];
      const another = async (options: Pick<OpenRegistryOptions, 'changeFeed' | 'quotas'> = {}) => {
        const registry = await openRegistry({ url, schema, env, ...options });
        registries.push(registry);
        return registry;
      };
      for (let i = 0; i < count; i += 1) await another();
      return {
        registries: [...registries],
        schema,
        another,
        async close() {
          await Promise.all(registries.map((registry) => registry.close()));
          await dropSchema(url, schema);
        },
      };
    },
  });
  return { dialects: dialects.map(withPair), skipped: undefined };
}

// Two registries through openMany, each opened with the options.
function withPair(dialect: Omit<TestDialect, 'openPair'>): TestDialect {
  return {
    ...dialect,
    async openPair(options = {}) {
      const shared = await dialect.openMany(0);
      const first = await shared.another(options);
      const second = await shared.another(options);
      return { registries: [first, second], close: () => shared.close() };
    },
  };
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`drop schema if exists ${schema} cascade`).finally(() => client.end());
}
