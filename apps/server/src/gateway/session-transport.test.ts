import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { serverFixtures } from '@mcp-agent/test-support';
import { serveHttpGateway } from './serve-http-gateway.js';
import { StaticTokenVerifier } from '../auth/token-verifier.js';

const PROTOCOL = '2025-11-25';
const home = mkdtempSync(join(tmpdir(), 'mcp-session-transport-'));
const ALICE = `alice-${randomBytes(12).toString('hex')}`;
const BOB = `bob-${randomBytes(12).toString('hex')}`;
let stack: AgentStack;
let served: Awaited<ReturnType<typeof serveHttpGateway>>;

const headers = (
  token: string,
  session?: string,
  accept = 'application/json, text/event-stream',
) => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
  accept,
  ...(session === undefined ? {} : { 'mcp-session-id': session, 'mcp-protocol-version': PROTOCOL }),
});

async function post(token: string, session: string | undefined, body: string, accept?: string) {
  const response = await fetch(served.url, {
    method: 'POST',
    headers: headers(token, session, accept),
    body,
  });
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    session: response.headers.get('mcp-session-id') ?? session,
    text: await response.text(),
  };
}
const rpc = (message: object) => JSON.stringify({ jsonrpc: '2.0', ...message });

async function open(token: string): Promise<string> {
  const init = await post(
    token,
    undefined,
    rpc({
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: PROTOCOL,
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      },
    }),
  );
  expect(init.status, init.text).toBe(200);
  await post(token, init.session, rpc({ method: 'notifications/initialized' }));
  return init.session as string;
}

const describeTools = (meta?: object) =>
  rpc({
    id: 7,
    method: 'tools/call',
    params: {
      name: 'describe_tools',
      arguments: { tool_ids: ['tracker.create_issue'] },
      ...(meta === undefined ? {} : { _meta: meta }),
    },
  });

beforeAll(async () => {
  stack = await openAgentStack({
    home,
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
    sandbox: false,
  });
  const script = join(home, 'tracker.json');
  writeFileSync(
    script,
    JSON.stringify({
      tools: [
        { name: 'create_issue', description: 'Create an issue', inputSchema: { type: 'object' } },
      ],
    }),
  );
  await stack.registry.addServer(createContext({ userId: 'alice' }), {
    id: 'tracker',
    transport: 'stdio',
    command: process.execPath,
    args: [serverFixtures.scripted, script],
  });
  served = await serveHttpGateway({
    stack,
    port: 0,
    verifier: new StaticTokenVerifier({ [ALICE]: 'alice', [BOB]: 'bob' }),
    jsonAnswers: true,
  });
});
afterAll(async () => {
  await served.close();
  await stack.close();
  rmSync(home, { recursive: true, force: true });
});

describe('the HTTP gateway with jsonAnswers', () => {
  it('answers a call without progress with one JSON body, and keeps nothing to resume', async () => {
    const session = await open(ALICE);
    const before = served.gateway.stats().events;
    const answer = await post(ALICE, session, describeTools());
    expect(answer.status, answer.text).toBe(200);
    expect(answer.type).toBe('application/json');
    expect(answer.session).toBe(session);
    const body = JSON.parse(answer.text) as { id: number; result: { content: { text: string }[] } };
    expect(body.id).toBe(7);
    expect(body.result.content[0]?.text).toContain('create_issue');
    expect(served.gateway.stats().events).toBe(before);
  });

  it('streams a call that asked for progress, resumable from its priming event', async () => {
    const session = await open(ALICE);
    const answer = await post(ALICE, session, describeTools({ progressToken: 'p1' }));
    expect(answer.status, answer.text).toBe(200);
    expect(answer.type).toMatch(/^text\/event-stream/);
    expect(answer.text).toMatch(/^id: [A-Za-z0-9_-]{22}$/m);
    expect(answer.text).toContain('create_issue');
  });

  it("leaves to the SDK what it refuses, and another user's session is not found", async () => {
    const session = await open(ALICE);
    const notAcceptable = await post(ALICE, session, describeTools(), 'application/json');
    expect(notAcceptable.status).toBe(406);
    const garbled = await post(ALICE, session, '{"jsonrpc":');
    expect(garbled.status).toBe(400);
    expect(JSON.parse(garbled.text).error.code).toBe(-32700);
    const stolen = await post(BOB, session, describeTools());
    expect(stolen.status).toBe(404);
    expect(stolen.text).not.toContain('create_issue');
  });
});
