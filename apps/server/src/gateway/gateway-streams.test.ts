import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { createManualClock, createMemoryLogger } from '@mcp-agent/core/testing';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { serverFixtures, streamedBody } from '@mcp-agent/test-support';
import { serveHttpGateway } from './serve-http-gateway.js';
import { StaticTokenVerifier } from '../auth/token-verifier.js';

// What a call's answer stream holds after the call: released on cancel (GW-08), kept for a
// bounded time (GW-09), never a stream without its answer on resume (GW-10), one registry of ids
// in flight whichever path a request takes. Raw HTTP over loopback, so the test sees the event
// ids and the status codes the SDK client hides.
const LIMITS = {
  sessionIdleMs: 60 * 60_000,
  eventStore: {
    maxBytesPerStream: 8_192,
    // Room for the memory test's thousands of answers in one session.
    maxBytesPerSession: 8 * 1024 * 1024,
    maxBytesTotal: 16 * 1024 * 1024,
    maxAgeMs: 60_000,
  },
};
const PROTOCOL = '2025-11-25';
const home = mkdtempSync(join(tmpdir(), 'mcp-gateway-streams-'));
const TOKEN = `alice-${randomBytes(12).toString('hex')}`;
const clock = createManualClock();
// At info, as a server runs: a success or a cancel is logged at debug, a failure at warn.
const log = createMemoryLogger('info');
let stack: AgentStack;
let served: Awaited<ReturnType<typeof serveHttpGateway>>;

const headers = (session?: string) => ({
  authorization: `Bearer ${TOKEN}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  ...(session === undefined ? {} : { 'mcp-session-id': session, 'mcp-protocol-version': PROTOCOL }),
});
const rpc = (message: object) => JSON.stringify({ jsonrpc: '2.0', ...message });
const idOf = (event: string) => /^id: (.+)$/m.exec(event)?.[1] as string;
const dataOf = (event: string) => /^data: (.*)$/m.exec(event)?.[1] ?? '';
// The events of a stream's text; keep-alive comments are not events.
const events = (text: string) =>
  text.split('\n\n').filter((event) => event.trim() !== '' && !event.startsWith(':'));

// A full collection before each heap reading, without asking vitest for `--expose-gc`: V8's
// last-resort one, which also drops its caches of compiled code (which grow and shrink with the
// code run, not with what the gateway holds), as a heap snapshot does.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as (options: object) => void;
async function settledHeap(): Promise<number> {
  // Sockets closed and timers run first; then collections with a turn between them, so that
  // finalisers (the weak references AbortSignal.any leaves behind) run and what they held goes.
  await new Promise((resolve) => setTimeout(resolve, 200));
  for (let i = 0; i < 3; i++) {
    collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return process.memoryUsage().heapUsed;
}

const post = (session: string | undefined, body: string | ReadableStream<Uint8Array>) =>
  fetch(served.url, {
    method: 'POST',
    headers: headers(session),
    body,
    // A stream is sent chunked, without Content-Length: the SDK transport's path.
    ...(typeof body === 'string' ? {} : { duplex: 'half' }),
  } as RequestInit);
const chunked = (text: string) => new Blob([text]).stream();

const call = (id: number, tool: string, args: object = {}) =>
  rpc({
    id,
    method: 'tools/call',
    params: { name: 'call_tool', arguments: { tool_id: tool, arguments: args } },
  });
const cancel = (session: string, requestId: number) =>
  post(session, rpc({ method: 'notifications/cancelled', params: { requestId, reason: 'user' } }));

// Reads a stream as it arrives: `next()` gives its next event, `rest()` what is left to its end.
function reader(response: Response) {
  const stream = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    async next(): Promise<string> {
      while (!text.includes('\n\n')) {
        const { value, done } = await stream.read();
        if (done) throw new Error(`the stream ended; it held ${JSON.stringify(text)}`);
        text += decoder.decode(value, { stream: true });
      }
      const at = text.indexOf('\n\n');
      const event = text.slice(0, at);
      text = text.slice(at + 2);
      return event;
    },
    async rest(): Promise<string> {
      for (;;) {
        const { value, done } = await stream.read();
        if (done) return text;
        text += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => stream.cancel().catch(() => undefined),
  };
}

const resume = (session: string, lastEventId: string) =>
  fetch(served.url, { headers: { ...headers(session), 'last-event-id': lastEventId } });

async function open(): Promise<string> {
  const init = await post(
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
  expect(init.status).toBe(200);
  const session = init.headers.get('mcp-session-id') as string;
  await init.text();
  await (await post(session, rpc({ method: 'notifications/initialized' }))).text();
  const described = await post(
    session,
    rpc({
      id: 0,
      method: 'tools/call',
      params: {
        name: 'describe_tools',
        arguments: { tool_ids: ['tracker.create_issue', 'tracker.export', 'hang.echo'] },
      },
    }),
  );
  expect(await described.text()).toContain('create_issue');
  return session;
}

const close = async (session: string) =>
  (await fetch(served.url, { method: 'DELETE', headers: headers(session) })).status;

const hangStatus = async () =>
  (await stack.pool.status(createContext({ userId: 'alice' }))).find((s) => s.serverId === 'hang');

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
        {
          name: 'create_issue',
          description: 'Create an issue',
          inputSchema: { type: 'object', properties: { title: { type: 'string' } } },
        },
        { name: 'export', description: 'Export every issue', inputSchema: { type: 'object' } },
      ],
      // Larger than a stream may keep (8 KiB).
      results: { export: { content: [{ type: 'text', text: 'issue '.repeat(4_000) }] } },
    }),
  );
  const ctx = createContext({ userId: 'alice' });
  await stack.registry.addServer(ctx, {
    id: 'tracker',
    transport: 'stdio',
    command: process.execPath,
    args: [serverFixtures.scripted, script],
  });
  // Its calls never answer: what a client cancels.
  await stack.registry.addServer(ctx, {
    id: 'hang',
    transport: 'stdio',
    command: process.execPath,
    args: [serverFixtures.misbehaving, 'hang-call'],
  });
  served = await serveHttpGateway({
    stack,
    port: 0,
    verifier: new StaticTokenVerifier({ [TOKEN]: 'alice' }),
    limits: LIMITS,
    clock,
    logger: log.logger,
  });
}, 60_000);

afterAll(async () => {
  await served?.close();
  await stack?.close();
  rmSync(home, { recursive: true, force: true });
});

describe("what a call's answer stream holds, and for how long", () => {
  it('GW-08 a cancelled call is released: its stream ends, its events go, its id may be used again; the cancel is neither logged as a failure nor counted as an error', async () => {
    const session = await open();
    const before = served.gateway.stats();
    const hanging = reader(await post(session, call(5, 'hang.echo', { text: 'never' })));
    const priming = await hanging.next();
    expect(served.gateway.stats().events).toBe(before.events + 1);

    expect((await cancel(session, 5)).status).toBe(202);
    // Nothing more will come on it: the stream ends, with no answer (the MCP rule).
    expect(events(await hanging.rest())).toEqual([]);
    expect(served.gateway.stats()).toEqual(before);
    // A resume from its priming event finds nothing kept: the SDK's 400, not a stream to wait on.
    expect((await resume(session, idOf(priming))).status).toBe(400);
    // The id is free again.
    const again = await post(session, call(5, 'tracker.create_issue', { title: 'reused id' }));
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('reused id');

    // GW-09: the client's cancel is not the server's failure.
    await expect.poll(async () => (await hangStatus())?.metrics.calls).toBe(1);
    expect((await hangStatus())?.metrics.errors).toBe(0);
    expect(log.lines().filter((line) => line.msg === 'tool call failed')).toEqual([]);
    expect(await close(session)).toBe(200);
  });

  it("GW-09 an answered stream's events are dropped once past their age; a call still running keeps the event its client resumes from", async () => {
    const session = await open();
    const answered = events(await (await post(session, call(1, 'tracker.create_issue'))).text());
    expect(answered).toHaveLength(2);
    const running = reader(await post(session, call(2, 'hang.echo')));
    const runningPriming = await running.next();
    expect(served.gateway.stats().events).toBeGreaterThan(3);

    clock.advance(LIMITS.eventStore.maxAgeMs - 1);
    expect(await served.gateway.expireIdleSessions()).toBe(0);
    expect((await resume(session, idOf(answered[0] as string))).status).toBe(200);
    clock.advance(LIMITS.eventStore.maxAgeMs + 1);
    expect(await served.gateway.expireIdleSessions()).toBe(0);
    // The session stays open; what it answered is gone, its running call's stream is kept.
    expect(served.gateway.stats()).toMatchObject({ sessions: 1, events: 1 });
    expect((await resume(session, idOf(answered[0] as string))).status).toBe(400);
    const resumed = await resume(session, idOf(runningPriming));
    expect(resumed.status).toBe(200);
    await running.cancel();
    expect((await cancel(session, 2)).status).toBe(202);
    expect(events(await resumed.text())).toEqual([]);
    expect(served.gateway.stats()).toMatchObject({ sessions: 1, events: 0, eventBytes: 0 });
    expect(await close(session)).toBe(200);
  });

  it('GW-10 an answer over the per-stream bound is never lost silently: the resume gets a JSON-RPC error that says so, then nothing more', async () => {
    const session = await open();
    const before = served.gateway.stats().events;
    const lost = reader(await post(session, call(3, 'tracker.export')));
    const priming = await lost.next();
    await lost.cancel();
    // The answer was written to a stream nobody reads any more, and kept in its small form.
    await expect.poll(() => served.gateway.stats().events).toBe(before + 2);
    const resumed = await resume(session, idOf(priming));
    expect(resumed.status).toBe(200);
    const [answer, ...more] = events(await resumed.text());
    expect(more).toEqual([]);
    expect(JSON.parse(dataOf(answer as string))).toMatchObject({
      jsonrpc: '2.0',
      id: 3,
      error: {
        code: -32603,
        message: expect.stringMatching(
          /too large to keep for a resume.*8192 bytes.*Call the tool again/,
        ),
      },
    });
    // Resumed again from that last event: nothing follows, ever (no stream to resume again).
    const after = await resume(session, idOf(answer as string));
    expect(after.status).toBe(204);
    // A client that kept its stream got the whole result.
    const whole = await (await post(session, call(4, 'tracker.export'))).text();
    expect(whole).toContain('issue '.repeat(100));
    expect(await close(session)).toBe(200);
  });

  it("refuses a reused id with 409 whichever path each request takes (the gateway's own, or the SDK's for a chunked body), and answers each request on its own stream", async () => {
    const session = await open();
    // First on the gateway's own path, then the same id chunked (the SDK transport's path).
    const lane = reader(await post(session, call(7, 'hang.echo')));
    await lane.next();
    const reusedOnSdk = await post(
      session,
      chunked(call(7, 'tracker.create_issue', { title: 'B' })),
    );
    expect(reusedOnSdk.status).toBe(409);
    expect(await reusedOnSdk.text()).toMatch(/id 7 is still being answered/);
    // First chunked (the SDK's path), then the same id on the gateway's own path.
    const sdk = reader(await post(session, chunked(call(8, 'hang.echo'))));
    await sdk.next();
    const reusedOnLane = await post(session, call(8, 'tracker.create_issue', { title: 'C' }));
    expect(reusedOnLane.status).toBe(409);
    expect(await reusedOnLane.text()).toMatch(/id 8 is still being answered/);
    const bothChunked = await post(session, chunked(call(8, 'tracker.create_issue')));
    expect(bothChunked.status).toBe(409);
    await bothChunked.text();
    // A chunked body is read within the same bound the SDK sets, and refused in its words.
    const flood = await post(session, streamedBody(5 * 1024 * 1024));
    expect(flood.status).toBe(413);
    expect(await flood.text()).toMatch(
      /Payload Too Large: Request body must not exceed 1048576 bytes/,
    );
    // Cancelled, each is released on its own path: both streams end, both ids are free.
    expect((await cancel(session, 7)).status).toBe(202);
    expect((await cancel(session, 8)).status).toBe(202);
    expect(events(await lane.rest())).toEqual([]);
    expect(events(await sdk.rest())).toEqual([]);
    for (const [id, path] of [
      [7, 'lane'],
      [8, 'sdk'],
    ] as const) {
      const body = call(id, 'tracker.create_issue', { title: `${path} ${id}` });
      const answer = await post(session, path === 'lane' ? body : chunked(body));
      expect(answer.status).toBe(200);
      const text = await answer.text();
      expect(text).toContain(`${path} ${id}`);
      expect(text).toContain(`"id":${id}`);
    }
    expect(await close(session)).toBe(200);
  });

  it('GW-09 3,000 cancelled and 6,000 completed calls leave the settled heap within 1 MB of where it started once the session idles; the counted bytes are within 2x of the heap the store holds', async () => {
    const session = await open();
    let next = 100;
    const cancelled = async () => {
      const id = (next += 1);
      const stream = reader(await post(session, call(id, 'hang.echo')));
      await stream.next();
      await (await cancel(session, id)).text();
      expect(events(await stream.rest())).toEqual([]);
    };
    const completed = async () => {
      const id = (next += 1);
      expect(await (await post(session, call(id, 'tracker.create_issue'))).text()).toContain(
        `"id":${id}`,
      );
    };
    // Four clients at once, each `count` calls of one kind.
    const load = (count: number, one: () => Promise<void>) =>
      Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let i = 0; i < count / 4; i++) await one();
        }),
      );
    const idle = async () => {
      clock.advance(LIMITS.eventStore.maxAgeMs + 1);
      expect(await served.gateway.expireIdleSessions()).toBe(0);
    };
    // Warmed up first (code compiled, pools and caches at their working size).
    await load(600, cancelled);
    await load(1_200, completed);
    await idle();
    const start = await settledHeap();
    const startEvents = served.gateway.stats();

    await load(3_000, cancelled);
    await load(6_000, completed);
    const counted = served.gateway.stats().eventBytes;
    // Every completed call's stream is kept (for its age); no cancelled call's.
    expect(served.gateway.stats().events).toBe(startEvents.events + 2 * 6_000);
    const loaded = await settledHeap();

    await idle();
    expect(served.gateway.stats()).toMatchObject({ sessions: 1, events: 0, eventBytes: 0 });
    const end = await settledHeap();
    expect(end - start, `settled heap grew ${end - start} bytes`).toBeLessThan(1024 * 1024);
    const held = loaded - end;
    expect(counted, `counted ${counted} bytes for ${held} bytes of heap`).toBeLessThanOrEqual(
      2 * held,
    );
    expect(held, `counted ${counted} bytes for ${held} bytes of heap`).toBeLessThanOrEqual(
      2 * counted,
    );
    // The hanging server's calls were all cancelled by their client: none is an error.
    expect((await hangStatus())?.metrics.errors).toBe(0);
    expect(await close(session)).toBe(200);
  }, 300_000);
});
