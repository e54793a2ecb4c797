import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { lineTransport, serveStdioOverHttp, type StdioHttpBridge } from '@mcp-agent/test-support';
import { serveStdioGateway, type StdioGateway } from './stdio-gateway.js';

// The bridge the conformance runs reach the stdio gateway through (scripts/lib/gateway-target.mjs):
// a stdio gateway per HTTP session, each released when its session ends.
const home = mkdtempSync(join(tmpdir(), 'mcp-stdio-over-http-'));
let stack: AgentStack;
let bridge: StdioHttpBridge;
const gateways: StdioGateway[] = [];

beforeAll(async () => {
  stack = await openAgentStack({
    home,
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
    sandbox: false,
  });
  bridge = await serveStdioOverHttp(() => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    void serveStdioGateway({ stack, userId: 'alice', stdin, stdout }).then((gateway) =>
      gateways.push(gateway),
    );
    return lineTransport(stdin, stdout);
  });
}, 60_000);

afterAll(async () => {
  await bridge?.close();
  await stack?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('the stdio gateway behind a loopback HTTP bridge', () => {
  it('serves a stdio gateway per session and closes it when its session ends', async () => {
    const clients = await Promise.all(
      [1, 2, 3].map(async () => {
        const client = new Client({ name: 'bridge-test', version: '1' });
        const transport = new StreamableHTTPClientTransport(new URL(bridge.url));
        await client.connect(transport);
        return { client, transport };
      }),
    );
    for (const { client } of clients) {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('search_tools');
    }
    expect(bridge.sessions).toBe(3);
    expect(gateways).toHaveLength(3);

    for (const { client, transport } of clients) {
      await transport.terminateSession();
      await client.close();
    }
    expect(bridge.sessions).toBe(0);
    // Each gateway saw its stdin end, as a stdio server sees its client go.
    await Promise.all(gateways.map((gateway) => gateway.closed));
  }, 60_000);
});
