// The stack the dispatcher tests share: a registry, a pool and the scripted "github" server
// with tools for every validation, result and policy case, recreated around each test.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, expect } from 'vitest';
import { createContext, type ActionResponse } from '@mcp-agent/core';
import { createManualClock } from '@mcp-agent/core/testing';
import { ConnectionPool, type Registry } from '@mcp-agent/registry';
import { createTestRegistry } from '@mcp-agent/registry/testing';
import { Dispatcher, type DispatcherOptions } from './dispatcher.js';
import { serverFixtures } from '@mcp-agent/test-support';

const scripted = serverFixtures.scripted;
export const clock = createManualClock();
export const alice = createContext({ userId: 'alice', clock });
export const bob = createContext({ userId: 'bob', clock });

const issueTool = {
  name: 'create_issue',
  description: 'Create an issue',
  inputSchema: {
    type: 'object',
    properties: {
      repo: { type: 'string', pattern: '^[\\w.-]+/[\\w.-]+$' },
      title: { type: 'string', maxLength: 200 },
      labels: { type: 'array', items: { type: 'string' } },
      priority: { type: 'string', enum: ['low', 'high'] },
      due: { type: 'string', format: 'date' },
    },
    required: ['repo', 'title'],
    additionalProperties: false,
  },
};
export const githubScript = {
  tools: [
    issueTool,
    {
      name: 'delete_repo',
      description: 'Delete',
      inputSchema: { type: 'object' },
      annotations: { destructiveHint: true },
    },
    { name: 'fails', inputSchema: { type: 'object' } },
    {
      name: 'typed',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    },
    {
      name: 'typed_bad',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    },
    {
      name: 'broken_schema',
      inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } },
    },
    {
      name: 'recursive',
      inputSchema: {
        $defs: { node: { type: 'object', properties: { child: { $ref: '#/$defs/node' } } } },
        $ref: '#/$defs/node',
      },
    },
    {
      name: 'send_email',
      inputSchema: {
        type: 'object',
        properties: { recipient_email: { type: 'string' }, body: { type: 'string' } },
        required: ['recipient_email'],
        additionalProperties: false,
      },
    },
    { name: 'big', inputSchema: { type: 'object' } },
    { name: '__proto__', inputSchema: { type: 'object' } },
    { name: 'then', inputSchema: { type: 'object' } },
    {
      name: 'a"b',
      inputSchema: { type: 'object' },
      description: '*/ `${process.exit()}` </script> \u0000 \u200b',
    },
    { name: 'Send_Email', inputSchema: { type: 'object' } },
  ],
  results: {
    fails: {
      isError: true,
      content: [{ type: 'text', text: 'rate limit at upstream: try later' }],
    },
    typed: { structuredContent: { n: 3 }, content: [{ type: 'text', text: '{"n":3}' }] },
    typed_bad: {
      structuredContent: { n: 'three' },
      content: [{ type: 'text', text: '{"n":"three"}' }],
    },
    big: { content: [{ type: 'text', text: 'lorem ipsum '.repeat(2_000) }] },
  },
};

/** The current test's registry and pool. */
export const stack = {} as { registry: Registry; pool: ConnectionPool };
const dir = mkdtempSync(join(tmpdir(), 'mcp-dispatch-'));

export async function addScripted(ctx = alice, id = 'github', script: object = githubScript) {
  const file = join(dir, `${ctx.userId}-${id}.json`);
  writeFileSync(file, JSON.stringify(script));
  await stack.registry.addServer(ctx, {
    id,
    transport: 'stdio',
    command: process.execPath,
    args: [scripted, file],
  });
  await stack.pool.waitForReady(ctx, [id]);
}

let servers = 0;

/** Adds a real MCP server from npm (this package's devDependencies) over stdio, ready. */
export async function addNpmServer(
  ctx: typeof alice,
  id: string,
  name: 'server-everything' | 'server-memory',
): Promise<void> {
  const entry = fileURLToPath(
    new URL(`../node_modules/@modelcontextprotocol/${name}/dist/index.js`, import.meta.url),
  );
  await stack.registry.addServer(ctx, {
    id,
    transport: 'stdio',
    command: process.execPath,
    args: [entry],
    // The memory server writes its graph next to itself unless told where.
    env: { MEMORY_FILE_PATH: join(dir, `${ctx.userId}-${id}-${++servers}-memory.jsonl`) },
  });
  await stack.pool.waitForReady(ctx, [id]);
}

export function dispatcher(options: Partial<DispatcherOptions> = {}): Dispatcher {
  return new Dispatcher({ registry: stack.registry, pool: stack.pool, ...options });
}

export async function serverCalls(ctx = alice, id = 'github'): Promise<number> {
  const result = await stack.pool.callTool(ctx, id, '__calls', {});
  return Number((result.content as { text: string }[])[0]?.text);
}

export function expectError(response: ActionResponse, code: string, message?: RegExp) {
  expect(response.ok, JSON.stringify(response)).toBe(false);
  if (response.ok) return;
  expect(response.error.code).toBe(code);
  if (message) expect(response.error.message).toMatch(message);
}

/** Opens the stack before each test of the calling file and closes it after. */
export function useDispatchStack(): void {
  beforeEach(async () => {
    stack.registry = await createTestRegistry();
    stack.pool = new ConnectionPool(stack.registry, {
      pingIntervalMs: 0,
      backoff: { baseMs: 10, capMs: 50 },
    });
    await addScripted();
  });
  afterEach(async () => {
    await stack.pool.close();
    await stack.registry.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
}
