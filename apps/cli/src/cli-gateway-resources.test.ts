// The gateway's MCP resources (resources/list, resources/templates/list and resources/read), on
// the built CLI's stdio gateway with the real server-everything and an SDK server without
// templates: one server per page, servers with nothing skipped, reads from the listing server.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { serverFixtures } from '@mcp-agent/test-support';
import { addNodeServer as add, cliHome, gatewayClient, npmServers } from './cli-test-helpers.js';

const { home, env, run } = cliHome('mcp-cli-resources-');
afterAll(() => rmSync(home, { recursive: true, force: true }));

// Every page of resources/list or resources/templates/list, as a client pages them.
async function pagesOf<T>(
  list: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>,
): Promise<T[][]> {
  const pages: T[][] = [];
  let cursor: string | undefined;
  do {
    const page = await list(cursor);
    pages.push(page.items);
    cursor = page.nextCursor;
  } while (cursor !== undefined && pages.length < 20);
  return pages;
}

const resourcePages = (client: Client) =>
  pagesOf<Resource>(async (cursor) => {
    const page = await client.listResources(cursor === undefined ? {} : { cursor }, {
      timeout: 60_000,
    });
    return { items: page.resources, nextCursor: page.nextCursor };
  });

describe('resources for gateway clients', () => {
  it('RES-04 RES-05 every server’s resources page by page, empty servers skipped, templates passed through, reads from the listing server', async () => {
    // In id order: aaa (no resources), everything (resources and templates), kube (14
    // resources in pages of 5, -32601 to resources/templates/list), tiny (no resources).
    add(run, 'aaa', [serverFixtures.misbehaving]);
    add(run, 'everything', [npmServers.everything]);
    add(run, 'kube', [serverFixtures.resourcesWithoutTemplates, '14', '5']);
    add(run, 'tiny', [serverFixtures.misbehaving]);
    const client = await gatewayClient(home, env);
    try {
      expect(client.getServerCapabilities()?.resources).toBeDefined();
      const pages = await resourcePages(client);
      // The first page is never empty while a server has resources; only the last may be.
      const [first, second, ...rest] = pages;
      expect(first!.length).toBeGreaterThan(0);
      expect(first!.every((r) => r._meta?.['mcp-agent/server'] === 'everything')).toBe(true);
      // The server without templates keeps its 14 resources (all of its pages).
      expect(second!.map((r) => r.uri)).toEqual(
        Array.from({ length: 14 }, (_, i) => `note://resources-server/${i + 1}`),
      );
      expect(second!.every((r) => r._meta?.['mcp-agent/server'] === 'kube')).toBe(true);
      expect(rest.flat()).toEqual([]);
      expect(pages.length).toBeLessThanOrEqual(3);

      // Templates pass through, the server that has them named.
      const templates = await pagesOf<ResourceTemplate>(async (cursor) => {
        const page = await client.listResourceTemplates(cursor === undefined ? {} : { cursor }, {
          timeout: 60_000,
        });
        return { items: page.resourceTemplates, nextCursor: page.nextCursor };
      });
      expect(templates[0]!.length).toBeGreaterThan(0);
      expect(templates[0]!.every((t) => t._meta?.['mcp-agent/server'] === 'everything')).toBe(true);
      expect(templates.slice(1).flat()).toEqual([]);

      const text = first!.find(
        (r) => r.mimeType === 'text/markdown' || r.mimeType === 'text/plain',
      );
      const read = await client.readResource({ uri: text!.uri });
      expect(read.contents[0]).toMatchObject({ uri: text!.uri });
      expect(String((read.contents[0] as { text?: string }).text).length).toBeGreaterThan(0);
      const note = await client.readResource({ uri: 'note://resources-server/7' });
      expect(note.contents[0]).toMatchObject({ text: 'the text of note 7' });
      await expect(client.readResource({ uri: 'demo://never/listed' })).rejects.toThrow(
        /was not listed in this session: list resources first/,
      );
    } finally {
      await client.close();
    }
  }, 90_000);

  it('RES-05 a quota refusal is an error naming the limit, never an empty page', async () => {
    const own = cliHome('mcp-cli-resources-quota-');
    add(own.run, 'kube', [serverFixtures.resourcesWithoutTemplates, '3']);
    expect(own.run(['usage', 'quota', 'set', '--max-calls-per-hour', '1']).code).toBe(0);
    const client = await gatewayClient(own.home, own.env);
    try {
      // The one call of the hour lists kube's resources; the next listing is refused, loudly.
      expect((await resourcePages(client)).flat()).toHaveLength(3);
      await expect(client.listResources({}, { timeout: 60_000 })).rejects.toThrow(
        /QUOTA_EXCEEDED: [^\n]*maxCallsPerHour/,
      );
    } finally {
      await client.close();
    }
  }, 90_000);
});
