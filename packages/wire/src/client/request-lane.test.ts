import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  ErrorCode,
  McpError,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { RequestLane } from './request-lane.js';

// A client with a lane, and a scripted server: `answer` decides what each request gets back.
async function laneTo(
  answer: (request: JSONRPCRequest, reply: (m: JSONRPCMessage) => void) => void,
) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const seen: JSONRPCMessage[] = [];
  serverSide.onmessage = (message) => {
    seen.push(message);
    const reply = (m: JSONRPCMessage) => void serverSide.send(m);
    if ((message as JSONRPCRequest).method === 'initialize')
      reply({
        jsonrpc: '2.0',
        id: (message as JSONRPCRequest).id,
        result: {
          protocolVersion: '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: 'scripted', version: '1' },
        },
      });
    else if ('id' in message && 'method' in message) answer(message, reply);
  };
  await serverSide.start();
  const client = new Client({ name: 't', version: '1' });
  await client.connect(clientSide);
  return { client, lane: new RequestLane(clientSide), seen, serverSide };
}

const call = { method: 'tools/call', params: { name: 'echo', arguments: { a: 1 } } };
const result = { content: [{ type: 'text', text: 'ok' }] };

describe('RequestLane', () => {
  it("answers its own requests, and leaves the SDK client's to the SDK", async () => {
    const { client, lane, seen } = await laneTo((request, reply) =>
      reply({ jsonrpc: '2.0', id: request.id, result: request.method === 'ping' ? {} : result }),
    );
    await expect(lane.request(call, { timeout: 5_000 })).resolves.toEqual(result);
    await expect(client.ping()).resolves.toEqual({});
    const ids = seen.filter((m) => 'id' in m).map((m) => (m as JSONRPCRequest).id);
    // initialize and ping on the SDK's numbers, the call far above them.
    expect(ids[0]).toBe(0);
    expect(ids[1]).toBeGreaterThanOrEqual(2 ** 40);
    expect(ids[2]).toBe(1);
    expect(lane.pending).toBe(0);
    await client.close();
  });

  it('hands progress on in order before the result, and a server error as an McpError', async () => {
    const { client, lane } = await laneTo((request, reply) => {
      const token = (request.params?._meta as { progressToken?: number } | undefined)
        ?.progressToken;
      if (request.params?.name === 'fails') {
        reply({ jsonrpc: '2.0', id: request.id, error: { code: -32602, message: 'bad', data: 1 } });
        return;
      }
      for (const progress of [1, 2])
        reply({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: token as number, progress, total: 2 },
        });
      reply({ jsonrpc: '2.0', id: request.id, result });
    });
    const progress: number[] = [];
    await expect(
      lane.request(call, { timeout: 5_000, onprogress: (p) => progress.push(p.progress) }),
    ).resolves.toEqual(result);
    expect(progress).toEqual([1, 2]);
    const failed = lane.request({ ...call, params: { name: 'fails' } }, { timeout: 5_000 });
    await expect(failed).rejects.toBeInstanceOf(McpError);
    await expect(failed).rejects.toMatchObject({ code: -32602, data: 1 });
    await client.close();
  });

  it('times out (MCP -32001), resets on progress, and stops at the ceiling; the server is told', async () => {
    const { client, lane, seen, serverSide } = await laneTo(() => undefined);
    const silent = lane.request(call, { timeout: 50 });
    await expect(silent).rejects.toMatchObject({
      code: ErrorCode.RequestTimeout,
      message: expect.stringMatching(/Request timed out/),
    });
    const cancelled = seen.find(
      (m) => (m as { method?: string }).method === 'notifications/cancelled',
    ) as { params: { requestId: number } } | undefined;
    expect(cancelled?.params.requestId).toBeGreaterThanOrEqual(2 ** 40);
    // Progress every 30 ms keeps a 60 ms timeout alive, until the 200 ms ceiling.
    const started = Date.now();
    const kept = lane.request(call, {
      timeout: 60,
      maxTotalTimeout: 200,
      resetTimeoutOnProgress: true,
      onprogress: () => undefined,
    });
    const request = seen.at(-1) as JSONRPCRequest;
    const token = (request.params?._meta as { progressToken: number }).progressToken;
    const ticker = setInterval(
      () =>
        void serverSide.send({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: token, progress: 1 },
        }),
      30,
    );
    await expect(kept).rejects.toMatchObject({
      code: ErrorCode.RequestTimeout,
      message: expect.stringMatching(/Maximum total timeout exceeded/),
    });
    clearInterval(ticker);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(lane.pending).toBe(0);
    await client.close();
  });

  it('times each request out at its own deadline, a shorter one sent later first', async () => {
    const { client, lane } = await laneTo(() => undefined);
    const started = Date.now();
    const ended: [string, number][] = [];
    const timed = (name: string, timeout: number) =>
      lane.request(call, { timeout }).catch((error: McpError) => {
        ended.push([name, Date.now() - started]);
        expect(error.code).toBe(ErrorCode.RequestTimeout);
      });
    const long = timed('long', 600);
    const short = timed('short', 40);
    await Promise.all([long, short]);
    expect(ended.map(([name]) => name)).toEqual(['short', 'long']);
    // Each at its own time: the short one long before the long one's deadline.
    expect(ended[0]?.[1]).toBeLessThan(400);
    expect(ended[1]?.[1]).toBeGreaterThanOrEqual(600);
    expect(lane.pending).toBe(0);
    await client.close();
  });

  it("an abort cancels at once with the abort's reason, and drops the late answer", async () => {
    let late: (() => void) | undefined;
    const { client, lane, seen } = await laneTo((request, reply) => {
      late = () => reply({ jsonrpc: '2.0', id: request.id, result });
    });
    const controller = new AbortController();
    const pending = lane.request(call, { timeout: 5_000, signal: controller.signal });
    controller.abort('user left');
    await expect(pending).rejects.toMatchObject({
      code: ErrorCode.RequestTimeout,
      message: expect.stringMatching(/user left/),
    });
    late?.();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen.some((m) => (m as { method?: string }).method === 'notifications/cancelled')).toBe(
      true,
    );
    expect(lane.pending).toBe(0);
    await expect(lane.request(call, { signal: controller.signal })).rejects.toBe('user left');
    await client.close();
  });

  it('rejects what is pending when the connection closes, and every request after', async () => {
    const { client, lane } = await laneTo(() => undefined);
    const pending = lane.request(call, { timeout: 5_000 });
    await client.close();
    await expect(pending).rejects.toMatchObject({ code: ErrorCode.ConnectionClosed });
    await expect(lane.request(call, { timeout: 5_000 })).rejects.toMatchObject({
      code: ErrorCode.ConnectionClosed,
    });
  });
});
