// Resource listings through the pool on real SDK servers over stdio: optional methods a server
// lacks mean "none", never the loss of what it has.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { serverFixtures } from '@mcp-agent/test-support';
import { createTestRegistry } from '../../testing/index.js';
import type { Registry } from '../../registry.js';
import { ConnectionPool } from './connection-pool.js';
import { servers } from './pool-test-helpers.js';

const alice = createContext({ userId: 'alice' });
let registry: Registry;
let pool: ConnectionPool;

beforeEach(async () => {
  registry = await createTestRegistry();
  pool = new ConnectionPool(registry, { attempts: 1, attemptTimeoutMs: 10_000, pingIntervalMs: 0 });
});
afterEach(async () => {
  await pool.close();
  await registry.close();
});

describe('listing resources', () => {
  it('RES-04 a server that answers -32601 to resources/templates/list keeps its resources (templates: none)', async () => {
    // 5 resources in pages of 2: every page is read, and the missing method lists no template.
    await registry.addServer(alice, {
      id: 'notes',
      transport: 'stdio',
      command: process.execPath,
      args: [serverFixtures.resourcesWithoutTemplates, '5', '2'],
    });
    const listing = await pool.listResources(alice, 'notes');
    expect(listing).toMatchObject({ supported: true, templates: [], truncated: false });
    expect(listing.resources.map((r) => r.uri)).toEqual(
      [1, 2, 3, 4, 5].map((i) => `note://resources-server/${i}`),
    );
  });

  it('RES-04 templates a server has are passed on beside its resources', async () => {
    await registry.addServer(alice, {
      id: 'everything',
      transport: 'stdio',
      command: process.execPath,
      args: [servers.everything],
    });
    const listing = await pool.listResources(alice, 'everything');
    expect(listing.resources.length).toBeGreaterThan(0);
    expect(listing.templates.length).toBeGreaterThan(0);
    expect(listing.templates[0]?.uriTemplate).toMatch(/\{/);
  });
});
