import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createContext } from '@mcp-agent/core';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { serveHttpGateway } from './serve-http-gateway.js';
import { StaticTokenVerifier } from '../auth/token-verifier.js';

const home = mkdtempSync(join(tmpdir(), 'mcp-gateway-media-'));
const ALICE = `alice-${randomBytes(12).toString('hex')}`;
const BOB = `bob-${randomBytes(12).toString('hex')}`;
const everything = fileURLToPath(
  new URL(
    '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
    import.meta.url,
  ),
);
let stack: AgentStack;
let served: Awaited<ReturnType<typeof serveHttpGateway>>;
const clients: Client[] = [];

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(served.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
}

type Content = { type: string; text?: string; data?: string; mimeType?: string }[];
const json = (result: unknown) =>
  JSON.parse(((result as { content: Content }).content[0]?.text ?? 'null') as string);

beforeAll(async () => {
  stack = await openAgentStack({
    home,
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
  });
  for (const userId of ['alice', 'bob'])
    await stack.registry.addServer(createContext({ userId }), {
      id: userId === 'alice' ? 'everything' : 'theirs',
      transport: 'stdio',
      command: process.execPath,
      args: [everything],
    });
  served = await serveHttpGateway({
    stack,
    port: 0,
    verifier: new StaticTokenVerifier({ [ALICE]: 'alice', [BOB]: 'bob' }),
  });
}, 60_000);
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await served.close();
  await stack.close();
  rmSync(home, { recursive: true, force: true });
});

describe('the gateway shows media', () => {
  it('OUT-05 call_tool of an image tool returns the image as MCP image content after its text', async () => {
    const client = await connect(ALICE);
    await client.callTool({
      name: 'describe_tools',
      arguments: { tool_ids: ['everything.get-tiny-image'] },
    });
    const result = await client.callTool({
      name: 'call_tool',
      arguments: { tool_id: 'everything.get-tiny-image', arguments: {} },
    });
    const content = result.content as Content;
    expect(content.map((block) => block.type)).toEqual(['text', 'image']);
    expect(content[1]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(
      Buffer.from(content[1]?.data ?? '', 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect(JSON.stringify(json(result))).toContain('yes: image 1, attached after this result');
  }, 60_000);
});

describe('read_resource follows resource links, tenant-scoped', () => {
  it('follows a resource_link by URI alone; a blob is described and readable through read_result', async () => {
    const client = await connect(ALICE);
    await client.callTool({
      name: 'describe_tools',
      arguments: { tool_ids: ['everything.get-resource-links'] },
    });
    const links = json(
      await client.callTool({
        name: 'call_tool',
        arguments: { tool_id: 'everything.get-resource-links', arguments: { count: 2 } },
      }),
    ) as { result: { type: string; uri?: string }[] };
    const uris = links.result.filter((b) => b.type === 'resource_link').map((b) => b.uri);
    expect(uris).toEqual(['demo://resource/dynamic/blob/1', 'demo://resource/dynamic/text/2']);
    const text = json(
      await client.callTool({ name: 'read_resource', arguments: { uri: uris[1] } }),
    );
    expect(text).toEqual({
      server: 'everything',
      uri: 'demo://resource/dynamic/text/2',
      contents: [
        {
          type: 'resource',
          resource: {
            uri: 'demo://resource/dynamic/text/2',
            mimeType: 'text/plain',
            text: expect.stringMatching(/^Resource 2: This is a plaintext resource/),
          },
        },
      ],
    });
    const blob = json(
      await client.callTool({ name: 'read_resource', arguments: { uri: uris[0] } }),
    ) as { contents: { resource: { read_result: { id: string; path: string } } }[] };
    const pointer = blob.contents[0]?.resource.read_result;
    expect(pointer).toEqual({ id: expect.stringMatching(/^obs_/), path: '[0]' });
    // Followed exactly as given, the pointer reads the blob's base64, page after page, and the
    // bytes it decodes to are as many as the description says.
    const shownBytes = (blob.contents[0]?.resource as unknown as { bytes: number }).bytes;
    const first = json(
      await client.callTool({ name: 'read_result', arguments: { ...pointer } }),
    ) as { value: { resource: { blob: string; read_result?: unknown } } };
    expect(first.value.resource.read_result).toBeUndefined();
    let base64 = '';
    let page = first.value.resource.blob;
    for (let pages = 0; ; pages++) {
      const tail = / … \[\d+ more chars; read_result id=(\S+) offset=(\d+) path=(.*)\]$/.exec(page);
      base64 += tail === null ? page : page.slice(0, tail.index);
      if (tail === null || pages > 50) break;
      const next = json(
        await client.callTool({
          name: 'read_result',
          arguments: { id: tail[1], offset: Number(tail[2]), path: tail[3] },
        }),
      ) as { value: string };
      page = next.value;
    }
    expect(Buffer.from(base64, 'base64').length).toBe(shownBytes);
    expect(shownBytes).toBeGreaterThan(0);
    // A listed resource of the server is read by naming the server.
    const listed = json(
      await client.callTool({
        name: 'read_resource',
        arguments: { server: 'everything', uri: 'demo://resource/static/document/architecture.md' },
      }),
    ) as { contents: { resource: { text: string } }[] };
    expect(listed.contents[0]?.resource.text.length).toBeGreaterThan(100);
  }, 60_000);

  it('TEN-01 a server of another user, or a URI linked by another server, is refused with a clear error', async () => {
    const alice = await connect(ALICE);
    const bob = await connect(BOB);
    const uri = 'demo://resource/static/document/architecture.md';
    // Bob's server is "theirs"; Alice has none of that name, and Bob has no "everything".
    const refusal = async (client: Client, args: Record<string, unknown>) => {
      const result = await client.callTool({ name: 'read_resource', arguments: args });
      expect(result.isError).toBe(true);
      return (json(result) as { error: { code: string; message: string } }).error;
    };
    expect(await refusal(alice, { server: 'theirs', uri })).toEqual({
      code: 'SERVER_NOT_FOUND',
      message: 'Server "theirs" is not connected for this user; add it first.',
    });
    expect(await refusal(bob, { server: 'everything', uri })).toMatchObject({
      code: 'SERVER_NOT_FOUND',
    });
    expect(await refusal(alice, { uri })).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      message: expect.stringMatching(/No result of this session linked .* name the server/),
    });
    await alice.callTool({
      name: 'describe_tools',
      arguments: { tool_ids: ['everything.get-resource-links'] },
    });
    await alice.callTool({
      name: 'call_tool',
      arguments: { tool_id: 'everything.get-resource-links', arguments: { count: 1 } },
    });
    expect(
      await refusal(alice, { server: 'other', uri: 'demo://resource/dynamic/blob/1' }),
    ).toEqual({
      code: 'INVALID_ARGUMENTS',
      message:
        'demo://resource/dynamic/blob/1 was linked by server "everything", not "other": read it with server "everything" (or without naming a server).',
    });
  }, 60_000);
});
