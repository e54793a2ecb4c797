import { afterEach, describe, expect, it } from 'vitest';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { answerInvalidParams } from './invalid-params.js';

// The real SDK Server over its in-memory transport pair: raw JSON-RPC in, its answers out.
const open: Server[] = [];
afterEach(async () => {
  for (const server of open.splice(0)) await server.close();
});

async function serve(
  handler: () => Promise<unknown>,
  schema: typeof CallToolRequestSchema | typeof ManyFields = CallToolRequestSchema,
) {
  const server = new Server({ name: 't', version: '1' }, { capabilities: { tools: {} } });
  open.push(server);
  server.setRequestHandler(schema, handler as never);
  answerInvalidParams(server, schema);
  const method = schema.shape.method.value;
  const [client, transport] = InMemoryTransport.createLinkedPair();
  const answers: JSONRPCMessage[] = [];
  client.onmessage = (message) => void answers.push(message);
  await server.connect(transport);
  await client.start();
  return async (id: number, params: unknown) => {
    await client.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage);
    for (let i = 0; i < 100 && !answers.some((a) => (a as { id?: unknown }).id === id); i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    return answers.find((a) => (a as { id?: unknown }).id === id) as {
      error?: { code: number; message: string };
      result?: unknown;
    };
  };
}

// A request with seven required fields: more problems than the error names.
const ManyFields = z.object({
  method: z.literal('test/many'),
  params: z.object(Object.fromEntries([...'abcdefg'].map((key) => [key, z.string()]))),
});

describe('answerInvalidParams: a request its schema refuses gets -32602 naming the fields', () => {
  it('names each field and what was expected, where the SDK alone answers -32603 with zod JSON', async () => {
    const call = await serve(async () => ({ content: [] }));
    expect((await call(1, { name: 42 })).error).toEqual({
      code: -32602,
      message:
        'Invalid params of tools/call: params.name: expected string, received number. Correct those fields and send the request again.',
    });
    expect((await call(2, undefined)).error?.message).toMatch(
      /^Invalid params of tools\/call: params: expected object, received undefined\./,
    );
    expect((await call(3, { name: 'ok' })).result).toEqual({ content: [] });
  });

  it('names five problems and counts the rest, never a silent cut', async () => {
    const call = await serve(async () => ({}), ManyFields);
    expect((await call(4, {})).error).toEqual({
      code: -32602,
      message:
        'Invalid params of test/many: params.a: expected string, received undefined; params.b: expected string, received undefined; params.c: expected string, received undefined; params.d: expected string, received undefined; params.e: expected string, received undefined (and 2 more). Correct those fields and send the request again.',
    });
  });

  it('keeps the code of a schema failure inside the handler (a valid request)', async () => {
    // A result the handler parses and refuses: a ZodError thrown after the request was accepted.
    const call = await serve(async () => CallToolResultSchema.parse({ content: 'not a list' }));
    const answer = await call(5, { name: 'ok' });
    expect(answer.error?.code).toBe(-32603);
  });
});
