import { createServer, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { MemoryEventStore } from './event-store.js';
import { isSingleRequest } from './request-body.js';
import { SessionTransport } from './session-transport.js';

// The transport on its own, answered by hand: the test decides when each response is sent, so
// it can lose a stream before the response exists, resume it and see the rest arrive live.
const PROTOCOL = '2025-11-25';
const opened: { server: Server; transport: SessionTransport }[] = [];

async function openSession() {
  const store = new MemoryEventStore();
  const events = store.forSession();
  const transport = new SessionTransport(
    new StreamableHTTPServerTransport({
      sessionIdGenerator: () => 'session-1',
      eventStore: events,
      retryInterval: 1_000,
    }),
    events,
    { jsonAnswers: false, maxBodyBytes: 64 * 1024, retryIntervalMs: 1_000 },
  );
  const waiting: ((request: JSONRPCRequest) => void)[] = [];
  const arrived: JSONRPCRequest[] = [];
  transport.onmessage = (message) => {
    if (!('method' in message) || !('id' in message)) return;
    const request = message as JSONRPCRequest;
    if (request.method === 'initialize') {
      void transport.send({
        jsonrpc: '2.0',
        id: request.id,
        result: {
          protocolVersion: PROTOCOL,
          capabilities: {},
          serverInfo: { name: 't', version: '1' },
        },
      });
      return;
    }
    const next = waiting.shift();
    if (next === undefined) arrived.push(request);
    else next(request);
  };
  await transport.start();
  const server = createServer((req, res) => void transport.handleRequest(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  opened.push({ server, transport });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const post = (body: unknown, signal?: AbortSignal) =>
    fetch(url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': 'session-1', 'mcp-protocol-version': PROTOCOL },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      ...(signal === undefined ? {} : { signal }),
    });
  const init = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: PROTOCOL,
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      },
    }),
  });
  await init.text();
  return {
    transport,
    store,
    post,
    resume: (lastEventId: string, signal?: AbortSignal) =>
      fetch(url, {
        headers: {
          ...headers,
          'mcp-session-id': 'session-1',
          'mcp-protocol-version': PROTOCOL,
          'last-event-id': lastEventId,
        },
        ...(signal === undefined ? {} : { signal }),
      }),
    nextRequest: () =>
      new Promise<JSONRPCRequest>((resolve) => {
        const first = arrived.shift();
        if (first === undefined) waiting.push(resolve);
        else resolve(first);
      }),
  };
}

afterEach(async () => {
  for (const { server, transport } of opened.splice(0)) {
    await transport.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const call = (id: number, meta?: object) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text: `call ${id}` }, ...(meta ? { _meta: meta } : {}) },
});
const result = (id: number | string, text: string): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  result: { content: [{ type: 'text', text }] },
});

// Reads a stream as it comes: `events(n)` waits until it holds n events (blank-line ended) and
// returns them; `all()` reads to its end and returns everything it carried.
function streamOf(response: Response) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const split = () => text.split('\n\n').filter((event) => event !== '');
  return {
    async events(count: number): Promise<string[]> {
      while (text.split('\n\n').length - 1 < count) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      return split();
    },
    async all(): Promise<string> {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return text;
        text += decoder.decode(value, { stream: true });
      }
    },
  };
}
interface RpcError {
  error: { code: number; message: string };
}
const idOf = (event: string) => /^id: (.+)$/m.exec(event)?.[1] as string;

describe("the session transport's own answer streams", () => {
  it('answers a call with a priming event and its response, written as the SDK writes them', async () => {
    const session = await openSession();
    const answered = session.post(call(1));
    const request = await session.nextRequest();
    expect(request).toEqual(call(1));
    await session.transport.send(result(1, 'done'), { relatedRequestId: 1 });
    const response = await answered;
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('mcp-session-id')).toBe('session-1');
    const [priming, answer, ...rest] = (await response.text()).split('\n\n');
    expect(priming).toMatch(/^id: [A-Za-z0-9_-]{22}\nretry: 1000\ndata: $/);
    expect(answer).toBe(
      `event: message\nid: ${idOf(answer as string)}\ndata: ${JSON.stringify(result(1, 'done'))}`,
    );
    expect(rest).toEqual(['']);
    // Kept for a resume: the priming event and the response (after initialize's two).
    expect(session.store.stats().events).toBe(4);
  });

  it('writes the head and the priming event once the request is on its way; an answer given at once goes out with them in one piece', async () => {
    const session = await openSession();
    const dispatched = vi.fn();
    const handler = session.transport.onmessage;
    session.transport.onmessage = (message, extra) => {
      dispatched();
      // Answered in the turn it arrived in, as a handler refusing it might.
      if ('id' in message && message.id === 9)
        void session.transport.send(result(9, 'at once'), { relatedRequestId: 9 });
      else handler?.(message, extra);
    };
    const writeHead = vi.spyOn(ServerResponse.prototype, 'writeHead');
    const write = vi.spyOn(ServerResponse.prototype, 'write');
    const end = vi.spyOn(ServerResponse.prototype, 'end');
    try {
      const later = session.post(call(8));
      await session.nextRequest();
      expect(dispatched).toHaveBeenCalledTimes(1);
      expect(writeHead).toHaveBeenCalledTimes(1);
      expect(dispatched.mock.invocationCallOrder[0]).toBeLessThan(
        writeHead.mock.invocationCallOrder[0] as number,
      );
      await session.transport.send(result(8, 'later'), { relatedRequestId: 8 });
      expect(await (await later).text()).toMatch(
        /^id: .*\nretry: 1000\ndata: \n\nevent: message\n/,
      );
      writeHead.mockClear();
      write.mockClear();
      end.mockClear();
      const text = await (await session.post(call(9))).text();
      expect(writeHead).toHaveBeenCalledTimes(1);
      expect(write).not.toHaveBeenCalled();
      expect(end).toHaveBeenCalledTimes(1);
      const [priming, answer, ...rest] = text.split('\n\n');
      expect(priming).toMatch(/^id: [A-Za-z0-9_-]{22}\nretry: 1000\ndata: $/);
      expect(answer).toBe(
        `event: message\nid: ${idOf(answer as string)}\ndata: ${JSON.stringify(result(9, 'at once'))}`,
      );
      expect(rest).toEqual(['']);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('GW-01 a stream lost before its response is resumed with Last-Event-ID: the rest arrives live, then it ends; the newest resume wins', async () => {
    const session = await openSession();
    const lost = new AbortController();
    const response = await session.post(call(2, { progressToken: 'p' }), lost.signal);
    const [priming] = await streamOf(response).events(1);
    const request = await session.nextRequest();
    lost.abort();
    // Sent while no client listens: kept, and replayed.
    await session.transport.send(
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p', progress: 1 },
      },
      { relatedRequestId: request.id },
    );
    const resumed = await session.resume(idOf(priming as string));
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('content-type')).toBe('text/event-stream');
    const first = streamOf(resumed);
    expect((await first.events(1))[0]).toContain('"progress":1');
    // Resumed again (the client's connection died unnoticed): the newest connection takes over.
    const taken = await session.resume(idOf(priming as string));
    expect(await first.all()).not.toContain('"text"');
    await session.transport.send(result(2, 'late'), { relatedRequestId: 2 });
    const rest = await streamOf(taken).all();
    expect(rest).toContain('"progress":1');
    expect(rest).toContain('"text":"late"');
    // Answered: a resume now replays the whole stream and ends.
    const again = await (await session.resume(idOf(priming as string))).text();
    expect(again.split('\n\n').filter((event) => event !== '')).toHaveLength(2);
    expect(again).toContain('"text":"late"');
  });

  it('refuses a request whose id is still being answered, and leaves malformed messages to the SDK', async () => {
    const session = await openSession();
    const first = session.post(call(3));
    await session.nextRequest();
    const duplicate = await session.post(call(3));
    expect(duplicate.status).toBe(409);
    expect(((await duplicate.json()) as RpcError).error.message).toMatch(
      /id 3 is still being answered/,
    );
    await session.transport.send(result(3, 'once'), { relatedRequestId: 3 });
    expect(await (await first).text()).toContain('"text":"once"');
    const extraKey = await session.post({ ...call(4), extra: true });
    expect(extraKey.status).toBe(400);
    expect(((await extraKey.json()) as RpcError).error.code).toBe(-32700);
    const garbled = await session.post('{"jsonrpc":');
    expect(garbled.status).toBe(400);
    expect(((await garbled.json()) as RpcError).error.code).toBe(-32700);
  });

  it('ends its open streams when the session closes', async () => {
    const session = await openSession();
    const response = await session.post(call(5));
    await session.nextRequest();
    await session.transport.close();
    const events = (await response.text()).split('\n\n').filter((event) => event !== '');
    expect(events).toHaveLength(1);
  });
});

describe('isSingleRequest', () => {
  it("accepts what the SDK's request schema accepts, and nothing looser", () => {
    const valid = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } };
    expect(isSingleRequest(valid)).toBe(true);
    expect(isSingleRequest({ jsonrpc: '2.0', id: 'a', method: 'ping' })).toBe(true);
    expect(isSingleRequest({ ...valid, params: { _meta: { progressToken: 7 } } })).toBe(true);
    for (const refused of [
      [valid],
      null,
      { ...valid, jsonrpc: '1.0' },
      { ...valid, id: 1.5 },
      { ...valid, id: null },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { ...valid, extra: 1 },
      { ...valid, params: [] },
      { ...valid, params: { _meta: 'x' } },
      { ...valid, params: { _meta: { progressToken: 1.5 } } },
      { ...valid, params: { _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't' } } } },
      { jsonrpc: '2.0', id: 1, result: {} },
    ])
      expect(isSingleRequest(refused), JSON.stringify(refused)).toBe(false);
  });
});
