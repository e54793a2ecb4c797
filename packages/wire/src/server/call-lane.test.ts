import { describe, expect, it } from 'vitest';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  McpError,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { openCallLane, type CallHandler } from './call-lane.js';

// A server whose SDK handler and lane answer differently, and the raw messages a client sees.
async function laned(handle: CallHandler) {
  const server = new Server({ name: 't', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, () => ({
    content: [{ type: 'text', text: 'sdk' }],
  }));
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  openCallLane(serverSide, handle);
  const received: JSONRPCMessage[] = [];
  client.onmessage = (message) => received.push(message);
  await client.start();
  const answerTo = async (id: number) => {
    for (let i = 0; i < 100 && !received.some((m) => 'id' in m && m.id === id); i += 1)
      await new Promise((resolve) => setTimeout(resolve, 5));
    return received.find((m) => 'id' in m && m.id === id) as Record<string, unknown> | undefined;
  };
  return { client, server, received, answerTo };
}

const call = (id: number, params: Record<string, unknown>): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params,
});

const lane: CallHandler = async () => ({ content: [{ type: 'text', text: 'lane' }] });

describe('openCallLane', () => {
  it('answers a plain tools/call itself, and leaves a malformed one or a task to the SDK', async () => {
    const { client, answerTo } = await laned(lane);
    await client.send(call(1, { name: 'call_tool', arguments: { tool_id: 'a.b' } }));
    expect(await answerTo(1)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'lane' }] },
    });
    // Arguments that are not an object, no name: the SDK's schema refuses them, its own way.
    await client.send(call(2, { name: 'call_tool', arguments: ['x'] }));
    expect(await answerTo(2)).toMatchObject({
      error: { message: expect.stringMatching(/arguments/) },
    });
    await client.send(call(3, { arguments: {} }));
    expect(await answerTo(3)).toMatchObject({ error: { message: expect.stringMatching(/name/) } });
    // A task asked for is the SDK's to answer (this server offers none, so it refuses).
    await client.send(call(4, { name: 'call_tool', arguments: {}, task: { ttl: 1000 } }));
    expect(await answerTo(4)).not.toMatchObject({ result: { content: [{ text: 'lane' }] } });
    await client.close();
  });

  it("answers a handler's error as a JSON-RPC error with its code, else as an internal error", async () => {
    const { client, answerTo } = await laned(async (request) => {
      if (request.params.name === 'coded') throw new McpError(ErrorCode.InvalidParams, 'no such');
      throw new Error('broke');
    });
    await client.send(call(1, { name: 'coded' }));
    expect((await answerTo(1))?.error).toEqual({
      code: ErrorCode.InvalidParams,
      message: 'MCP error -32602: no such',
    });
    await client.send(call(2, { name: 'other' }));
    expect((await answerTo(2))?.error).toEqual({ code: ErrorCode.InternalError, message: 'broke' });
    await client.close();
  });

  it('sends progress with the request id, and nothing once the client cancelled', async () => {
    let release = () => {};
    const signals: AbortSignal[] = [];
    const { client, received, answerTo } = await laned(async (_request, extra) => {
      signals.push(extra.signal);
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken: 't', progress: 1 },
      });
      await new Promise<void>((resolve) => (release = resolve));
      return { content: [] };
    });
    await client.send(call(7, { name: 'slow', _meta: { progressToken: 't' } }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 't', progress: 1 },
      },
    ]);
    await client.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 7, reason: 'user' },
    });
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[0]?.reason).toBe('user');
    release();
    expect(await answerTo(7)).toBeUndefined();
    await client.close();
  });

  it('aborts the calls still running when the session closes', async () => {
    const signals: AbortSignal[] = [];
    const { client, server } = await laned(
      (_request, extra) =>
        new Promise(() => {
          signals.push(extra.signal);
        }),
    );
    await client.send(call(1, { name: 'hangs' }));
    await client.send(call(2, { name: 'hangs' }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(signals).toHaveLength(2);
    await server.close();
    expect(signals.map((signal) => signal.aborted)).toEqual([true, true]);
  });
});
