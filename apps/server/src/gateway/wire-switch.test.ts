import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { createContext } from '@mcp-agent/core';
import { openAgentStack } from '@mcp-agent/agent';
import { serverFixtures } from '@mcp-agent/test-support';
import { parseWireMode, wireActivity, type WireActivity, type WireMode } from '@mcp-agent/wire';
import { serveHttpGateway } from './serve-http-gateway.js';
import { serveStdioGateway } from './stdio-gateway.js';

// MCP_AGENT_WIRE's two paths side by side: the same session (list, search, describe, call, a bad
// call) through the stdio and the HTTP gateway, each on a stack whose pool runs on the same
// mode. On `sdk` no part of @mcp-agent/wire runs (its counters stay still); the answers match.

const homes: string[] = [];
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

const TOOLS = [
  {
    name: 'create_issue',
    description: 'Create an issue in a repository',
    inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
  },
];

async function openStack(wire: WireMode) {
  const home = mkdtempSync(join(tmpdir(), `mcp-wire-${wire}-`));
  homes.push(home);
  const file = join(home, 'github.json');
  writeFileSync(file, JSON.stringify({ tools: TOOLS, results: {} }));
  const stack = await openAgentStack({
    home,
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
    pool: { wire, pingIntervalMs: 0 },
    sandbox: false,
  });
  await stack.registry.addServer(createContext({ userId: 'alice' }), {
    id: 'github',
    transport: 'stdio',
    command: process.execPath,
    args: [serverFixtures.scripted, file],
  });
  return stack;
}

// What a session sees, as text: the tools listed and each answer.
async function session(client: Client): Promise<string[]> {
  const seen = [(await client.listTools()).tools.map((tool) => tool.name).join(',')];
  const calls = [
    { name: 'search_tools', arguments: { query: 'open an issue' } },
    { name: 'describe_tools', arguments: { tool_ids: ['github.create_issue'] } },
    {
      name: 'call_tool',
      arguments: { tool_id: 'github.create_issue', arguments: { title: 'Bug' } },
    },
    { name: 'call_tool', arguments: { tool_id: 'github.create_issue', arguments: {} } },
  ];
  for (const call of calls) seen.push(JSON.stringify(await client.callTool(call)));
  // A malformed call (no name) is the SDK's to refuse on both paths.
  const refused = await client
    .request({ method: 'tools/call', params: { arguments: {} } } as never, CallToolResultSchema)
    .then(
      () => 'answered',
      (error: Error) => error.message,
    );
  seen.push(refused);
  return seen;
}

const moved = (before: WireActivity): Record<keyof WireActivity, number> => {
  const after = wireActivity();
  return Object.fromEntries(
    Object.entries(after).map(([key, value]) => [key, value - before[key as keyof WireActivity]]),
  ) as Record<keyof WireActivity, number>;
};

async function overStdio(wire: WireMode) {
  const stack = await openStack(wire);
  const toGateway = new PassThrough();
  const fromGateway = new PassThrough();
  const before = wireActivity();
  const gateway = await serveStdioGateway({
    stack,
    userId: 'alice',
    stdin: toGateway,
    stdout: fromGateway,
    wire,
  });
  const client = new Client({ name: 'wire-test', version: '1' });
  // The SDK's line transport is symmetric: the client reads what the gateway writes.
  await client.connect(new StdioServerTransport(fromGateway, toGateway) as Transport);
  try {
    return { answers: await session(client), activity: moved(before) };
  } finally {
    await client.close();
    await gateway.close();
    await stack.close();
  }
}

async function overHttp(wire: WireMode) {
  const stack = await openStack(wire);
  const before = wireActivity();
  const served = await serveHttpGateway({ stack, port: 0, singleUser: 'alice', wire });
  const client = new Client({ name: 'wire-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
  try {
    return { answers: await session(client), activity: moved(before) };
  } finally {
    await client.close();
    await served.close();
    await stack.close();
  }
}

describe('MCP_AGENT_WIRE: the lanes and the SDK alone', () => {
  it.each([
    ['stdio', overStdio],
    ['streamable HTTP', overHttp],
  ])(
    'over %s, sdk runs none of the wire and answers as the lanes do',
    async (_, run) => {
      const lanes = await run('lanes');
      const sdk = await run('sdk');
      // The lanes ran: the gateway's call lane took the plain calls, the pool's lane sent them.
      expect(lanes.activity.callLaneCalls).toBeGreaterThanOrEqual(4);
      expect(lanes.activity.requestLaneRequests).toBeGreaterThanOrEqual(1);
      expect(lanes.activity.processTransports).toBeGreaterThanOrEqual(1);
      // None of it ran on sdk.
      expect(sdk.activity).toEqual({
        callLaneCalls: 0,
        requestLaneRequests: 0,
        requestLanes: 0,
        stdioLineTransports: 0,
        processTransports: 0,
      });
      expect(sdk.answers).toEqual(lanes.answers);
      expect(lanes.answers[3]).toMatch(/title\W+Bug/);
      expect(lanes.answers[4]).toContain('INVALID_ARGUMENTS');
    },
    60_000,
  );

  it('stdio on lanes starts exactly one line transport of its own', async () => {
    const lanes = await overStdio('lanes');
    expect(lanes.activity.stdioLineTransports).toBe(1);
  }, 60_000);

  it('an invalid MCP_AGENT_WIRE is a start-up error naming the allowed values', () => {
    expect(() => parseWireMode('SDK ')).toThrow(
      /MCP_AGENT_WIRE is "SDK"; allowed values: lanes, sdk/,
    );
    expect(parseWireMode(undefined)).toBe('lanes');
    expect(parseWireMode('sdk')).toBe('sdk');
  });
});
