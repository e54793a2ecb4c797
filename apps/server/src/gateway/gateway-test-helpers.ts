import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createContext } from '@mcp-agent/core';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { deliverProgressBeforeResponses, wireModeFrom } from '@mcp-agent/wire';
import { serveHttpGateway } from './serve-http-gateway.js';
import { StaticTokenVerifier } from '../auth/token-verifier.js';
import { serverFixtures } from '@mcp-agent/test-support';

// The multi-tenant HTTP gateway the gateway tests share: Alice with GitHub and Slack, Bob with
// the company vault, each behind a bearer token, over scripted stdio servers.

export const ALICE_TOKEN = `alice-${randomBytes(12).toString('hex')}`;
export const BOB_TOKEN = `bob-${randomBytes(12).toString('hex')}`;

export const text = (result: unknown) =>
  JSON.parse(((result as { content: { text: string }[] }).content[0] as { text: string }).text);

/**
 * One JSON-RPC message POSTed to an open session of the gateway at `base` (a server's origin,
 * the gateway at `/mcp`) with the headers its client would send: a raw request, for what the SDK
 * client does not let a test send (another user's token, a session the client does not hold).
 */
export const postToSession = (base: string, token: string, sessionId: string, message: object) =>
  fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify(message),
  });

export interface TestGateway {
  readonly stack: AgentStack;
  readonly served: Awaited<ReturnType<typeof serveHttpGateway>>;
  /** Adds a scripted stdio server with these tools (and canned results) for one user. */
  addScripted(userId: string, id: string, tools: object[], results?: object): Promise<void>;
  /** An MCP client connected to the gateway with this bearer token (none when undefined). */
  connect(token: string | undefined): Promise<Client>;
}

/** Opens the gateway before the file's tests and closes it, and its folder, after them. */
export function useTestGateway(): TestGateway {
  const home = mkdtempSync(join(tmpdir(), 'mcp-gateway-'));
  const key = randomBytes(32).toString('base64');
  let stack: AgentStack | undefined;
  let served: TestGateway['served'] | undefined;
  const opened = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the test gateway is used before beforeAll opened it');
    return value;
  };

  async function addScripted(userId: string, id: string, tools: object[], results: object = {}) {
    const file = join(home, `${userId}-${id}.json`);
    writeFileSync(file, JSON.stringify({ tools, results }));
    await opened(stack).registry.addServer(createContext({ userId }), {
      id,
      transport: 'stdio',
      command: process.execPath,
      args: [serverFixtures.scripted, file],
    });
  }

  async function connect(token: string | undefined): Promise<Client> {
    const client = new Client({ name: 'test', version: '1' });
    const transport = new StreamableHTTPClientTransport(
      new URL(opened(served).url),
      token === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${token}` } } },
    );
    await client.connect(transport);
    // The SDK client would otherwise drop a last progress that shares a read with the result.
    deliverProgressBeforeResponses(transport);
    return client;
  }

  beforeAll(async () => {
    // MCP_AGENT_WIRE=sdk runs the gateway tests on the MCP SDK alone, gateway and pool both.
    const wire = wireModeFrom(process.env);
    stack = await openAgentStack({ home, env: { MCP_AGENT_SECRET_KEY: key }, pool: { wire } });
    await addScripted('alice', 'github', [
      {
        name: 'create_issue',
        description: 'Create an issue in a repository',
        inputSchema: {
          type: 'object',
          properties: { title: { type: 'string' } },
          required: ['title'],
        },
      },
    ]);
    await addScripted('alice', 'slack', [
      {
        name: 'post_message',
        description: 'Post a message to a Slack channel',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      },
    ]);
    await addScripted('bob', 'secrets', [
      {
        name: 'read_vault',
        description: 'Read the company vault',
        inputSchema: { type: 'object' },
      },
    ]);
    served = await serveHttpGateway({
      stack,
      port: 0,
      wire,
      verifier: new StaticTokenVerifier({ [ALICE_TOKEN]: 'alice', [BOB_TOKEN]: 'bob' }),
    });
  });
  afterAll(async () => {
    await served?.close();
    await stack?.close();
    rmSync(home, { recursive: true, force: true });
  });

  return {
    get stack() {
      return opened(stack);
    },
    get served() {
      return opened(served);
    },
    addScripted,
    connect,
  };
}
