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
import { serveHttpGateway } from './http-gateway.js';
import { StaticTokenVerifier } from './token-verifier.js';

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
