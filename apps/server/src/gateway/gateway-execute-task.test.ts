import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { createAnthropicModelClient } from '@mcp-agent/agent/anthropic';
import {
  startScriptedAnthropicServer,
  type ScriptedAnthropicServer,
} from '@mcp-agent/agent/testing';
import { createGatewayServer } from './gateway-server.js';

// The gateway's execute_task, over a real MCP client, with the task context of an IDE.
const home = mkdtempSync(join(tmpdir(), 'mcp-gateway-task-'));
let model: ScriptedAnthropicServer;
let stack: AgentStack;
let client: Client;

beforeAll(async () => {
  model = await startScriptedAnthropicServer();
  stack = await openAgentStack({
    home,
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
    sandbox: false,
    model: createAnthropicModelClient({
      apiKey: 'test-key',
      baseURL: model.url,
      model: 'scripted',
    }),
  });
  const server = createGatewayServer({ stack, userId: 'ada', executeTask: true });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'ide', version: '1' });
  await client.connect(clientSide);
});
afterAll(async () => {
  await client.close();
  await stack.close();
  await model.close();
  rmSync(home, { recursive: true, force: true });
});

describe('the gateway execute_task', () => {
  it("takes the client's task context, which reaches the model as marked data", async () => {
    const listed = await client.listTools();
    const tool = listed.tools.find((t) => t.name === 'execute_task');
    expect(tool?.inputSchema.properties).toHaveProperty('context');
    model.push({ content: [{ type: 'text', text: 'It prints a greeting.' }] });
    const result = await client.callTool({
      name: 'execute_task',
      arguments: {
        task: 'What does the selected code do?',
        context: {
          cwd: '/home/ada/app',
          activeDocumentURI: 'file:///home/ada/app/src/main.ts',
          selectionText: 'console.log("hi")',
        },
      },
    });
    expect(result.isError).toBeFalsy();
    const text = (result.content as { text: string }[])[0]?.text ?? '';
    expect(JSON.parse(text)).toMatchObject({
      status: 'completed',
      answer: 'It prints a greeting.',
    });
    const opening = JSON.stringify(model.requests[0]?.body.messages[0]);
    expect(opening).toContain('<user_context>');
    expect(opening).toContain('file:///home/ada/app/src/main.ts');
    expect(JSON.stringify(model.requests[0]?.body.system)).not.toContain('/home/ada/app');
  });

  it('refuses a malformed context with a clear error and no model request', async () => {
    const before = model.requests.length;
    const result = await client.callTool({
      name: 'execute_task',
      arguments: { task: 'x', context: { nested: { a: 1 } } },
    });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]?.text).toMatch(
      /Invalid input for execute_task: context\.nested/,
    );
    expect(model.requests).toHaveLength(before);
  });
});
