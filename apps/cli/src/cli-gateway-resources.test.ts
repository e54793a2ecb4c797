// The gateway's MCP resources (resources/list and resources/read), on the built CLI's stdio
// gateway with the real server-everything: one server per page, reads from the listing server.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import { serverFixtures } from '@mcp-agent/test-support';
import { cliHome, gatewayClient, npmServers } from './cli-test-helpers.js';

const { home, env, run } = cliHome('mcp-cli-resources-');
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('resources for gateway clients', () => {
  it('lists every server’s resources page by page and reads one from the server that listed it', async () => {
    for (const [id, args] of [
      ['everything', [npmServers.everything]],
      ['tiny', [serverFixtures.misbehaving]],
    ] as const)
      expect(
        run([
          'servers',
          'add',
          id,
          '--command',
          process.execPath,
          ...args.flatMap((a) => ['--arg', a]),
        ]).code,
      ).toBe(0);
    const client = await gatewayClient(home, env);
    try {
      expect(client.getServerCapabilities()?.resources).toBeDefined();
      const pages: Resource[][] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listResources(cursor === undefined ? {} : { cursor }, {
          timeout: 60_000,
        });
        pages.push(page.resources);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      // One page per server, in id order: everything's resources, then tiny's (none).
      expect(pages).toHaveLength(2);
      const listed = pages[0]!;
      expect(listed.length).toBeGreaterThan(0);
      expect(listed.every((r) => r._meta?.['mcp-agent/server'] === 'everything')).toBe(true);
      const text = listed.find(
        (r) => r.mimeType === 'text/markdown' || r.mimeType === 'text/plain',
      );
      const read = await client.readResource({ uri: text!.uri });
      expect(read.contents[0]).toMatchObject({ uri: text!.uri });
      expect(String((read.contents[0] as { text?: string }).text).length).toBeGreaterThan(0);
      await expect(client.readResource({ uri: 'demo://never/listed' })).rejects.toThrow(
        /was not listed in this session: list resources first/,
      );
    } finally {
      await client.close();
    }
  }, 90_000);
});
