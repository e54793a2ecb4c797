import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerConfig } from '@mcp-agent/core';
import { openRegistry } from '../open-registry.js';
import type { Registry } from '../registry.js';
import type { UserServerPolicy } from '../user-server-policy.js';
import type { QuotaLimits } from '../quota-limits.js';

/** A database the contract suites run on. */
export interface TestDialect {
  readonly name: 'sqlite' | 'postgres';
  /** A fresh, empty, migrated registry (its own PostgreSQL schema), plus how to drop it. */
  open(options?: {
    appServers?: readonly ServerConfig[];
    env?: Record<string, string>;
  }): Promise<Registry>;
  /**
   * Two registries on one fresh database, as two processes would have (SQLite: one file, two
   * connections; PostgreSQL: one schema, two pools); `close` closes both and cleans up.
   */
  openPair(options?: {
    quotas?: QuotaLimits;
  }): Promise<{ registries: [Registry, Registry]; close(): Promise<void> }>;
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
  } = {},
): Promise<Registry> {
  return openRegistry({
    url: ':memory:',
    env: { MCP_AGENT_SECRET_KEY: randomKey(), ...options.env },
    ...(options.appServers === undefined ? {} : { appServers: options.appServers }),
    ...(options.userServers === undefined ? {} : { userServers: options.userServers }),
  });
}

/**
 * The dialects to run contract suites on: SQLite always, PostgreSQL when
 * `MCP_AGENT_TEST_DATABASE_URL` is set. `skipped` says why PostgreSQL is missing, if it is.
 */
export function testDialects(): { dialects: TestDialect[]; skipped: string | undefined } {
  const dialects: TestDialect[] = [
    {
      name: 'sqlite',
      open: createTestRegistry,
      openPair: async (options = {}) => {
        const dir = mkdtempSync(join(tmpdir(), 'mcp-agent-pair-'));
        const env = { MCP_AGENT_SECRET_KEY: randomKey() };
        const open = () => openRegistry({ url: join(dir, 'shared.db'), env, ...options });
        // One after the other: the first migrates the file, the second finds it migrated.
        const first = await open();
        const second = await open();
        return {
          registries: [first, second],
          close: async () => {
            await Promise.all([first.close(), second.close()]);
            rmSync(dir, { recursive: true, force: true });
          },
        };
      },
    },
  ];
  const url = process.env.MCP_AGENT_TEST_DATABASE_URL;
  if (url === undefined || url === '') {
    return {
      dialects,
      skipped: 'PostgreSQL half skipped: set MCP_AGENT_TEST_DATABASE_URL=postgres://… to run it',
    };
  }
  dialects.push({
    name: 'postgres',
    open: (options = {}) =>
      openRegistry({
        url,
        schema: `test_${randomBytes(6).toString('hex')}`,
        env: { MCP_AGENT_SECRET_KEY: randomKey(), ...options.env },
        ...(options.appServers === undefined ? {} : { appServers: options.appServers }),
      }),
    openPair: async (options = {}) => {
      const schema = `test_${randomBytes(6).toString('hex')}`;
      const env = { MCP_AGENT_SECRET_KEY: randomKey() };
      const first = await openRegistry({ url, schema, env, ...options });
      const second = await openRegistry({ url, schema, env, ...options });
      return {
        registries: [first, second],
        close: async () => {
          await Promise.all([first.close(), second.close()]);
        },
      };
    },
  });
  return { dialects, skipped: undefined };
}
