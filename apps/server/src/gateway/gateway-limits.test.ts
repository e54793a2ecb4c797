import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { createManualClock } from '@mcp-agent/core/testing';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { serveHttpGateway } from './serve-http-gateway.js';
import { StaticTokenVerifier } from '../auth/token-verifier.js';
import { serverFixtures } from '@mcp-agent/test-support';

// Small limits, so that a few calls reach them; the defaults are documented in the README.
const LIMITS = {
  maxSessionsPerUser: 3,
  sessionIdleMs: 60_000,
  eventStore: { maxBytesPerStream: 2_048, maxBytesPerSession: 4_096, maxBytesTotal: 8_192 },
};
const PROTOCOL = '2025-11-25'; // the version whose streams start with a resumable priming event
const home = mkdtempSync(join(tmpdir(), 'mcp-gateway-limits-'));
const ALICE = `alice-${randomBytes(12).toString('hex')}`;
const BOB = `bob-${randomBytes(12).toString('hex')}`;
const clock = createManualClock();
let stack: AgentStack;
let served: Awaited<ReturnType<typeof serveHttpGateway>>;

interface SseEvent {
  readonly id?: string;
  readonly data: string;
}

const parseSse = (text: string): SseEvent[] =>
  text
    .split(/\n\n/)
    .filter((block) => /^(id|data):/m.test(block))
    .map((block) => {
      const id = /^id: (.*)$/m.exec(block)?.[1];
      const data = [...block.matchAll(/^data: ?(.*)$/gm)].map((m) => m[1]).join('\n');
      return id === undefined ? { data } : { id, data };
    });

const headers = (token: string, session?: string) => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  ...(session === undefined ? {} : { 'mcp-session-id': session, 'mcp-protocol-version': PROTOCOL }),
});

// One JSON-RPC message over plain HTTP, so the test sees the event ids the SDK client hides.
async function post(token: string, session: string | undefined, message: object) {
  const response = await fetch(served.url, {
    method: 'POST',
    headers: headers(token, session),
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
  const text = await response.text();
  return {
    status: response.status,
    session: response.headers.get('mcp-session-id') ?? session,
    events: parseSse(text),
    text,
  };
}

async function open(token: string): Promise<string> {
  const init = await post(token, undefined, {
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: PROTOCOL,
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    },
  });
  expect(init.status, init.text).toBe(200);
  await post(token, init.session, { method: 'notifications/initialized' });
  // A tool is called only after it was described in the session, as the agent's rule says.
  const described = await post(token, init.session, {
    id: 0,
    method: 'tools/call',
    params: { name: 'describe_tools', arguments: { tool_ids: ['tracker.create_issue'] } },
  });
  expect(described.status, described.text).toBe(200);
  return init.session as string;
}

const callTool = (token: string, session: string, title: string) =>
  post(token, session, {
    id: 1,
    method: 'tools/call',
    params: {
      name: 'call_tool',
      arguments: { tool_id: 'tracker.create_issue', arguments: { title } },
    },
  });

const close = (token: string, session: string) =>
  fetch(served.url, { method: 'DELETE', headers: headers(token, session) });

// Resumes a stream: what the server replays after `lastEventId`, read for at most `ms`.
async function resume(token: string, session: string, lastEventId: string, ms = 500) {
  const controller = new AbortController();
  const response = await fetch(served.url, {
    method: 'GET',
    headers: { ...headers(token, session), 'last-event-id': lastEventId },
    signal: controller.signal,
  });
  let text = '';
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    for await (const chunk of response.body ?? []) text += Buffer.from(chunk).toString();
  } catch {
    // aborted: the replay stream stays open for live events
  } finally {
    clearTimeout(timer);
  }
  return { status: response.status, text };
}

beforeAll(async () => {
  stack = await openAgentStack({
    home,
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
    sandbox: false,
  });
  for (const user of ['alice', 'bob']) {
    const script = join(home, `${user}.json`);
    writeFileSync(
      script,
      JSON.stringify({
        tools: [
          {
            name: 'create_issue',
            description: 'Create an issue',
            inputSchema: { type: 'object', properties: { title: { type: 'string' } } },
          },
        ],
      }),
    );
    await stack.registry.addServer(createContext({ userId: user }), {
      id: 'tracker',
      transport: 'stdio',
      command: process.execPath,
      args: [serverFixtures.scripted, script],
    });
  }
  served = await serveHttpGateway({
    stack,
    port: 0,
    verifier: new StaticTokenVerifier({ [ALICE]: 'alice', [BOB]: 'bob' }),
    limits: LIMITS,
    clock,
  });
});
afterAll(async () => {
  await served.close();
  await stack.close();
  rmSync(home, { recursive: true, force: true });
});

describe('the gateway holds nothing for ever, and nothing of one tenant reaches another', () => {
  it("GW-01 another tenant's Last-Event-ID replays nothing; event ids are random", async () => {
    const alice = await open(ALICE);
    const called = await callTool(ALICE, alice, 'ALICE-PRIVATE-RESULT');
    const [priming, result] = called.events;
    expect(result?.data).toContain('ALICE-PRIVATE-RESULT');
    const ids = called.events.map((e) => e.id as string);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const bob = await open(BOB);
    const stolen = await resume(BOB, bob, priming?.id as string);
    expect(stolen.text).not.toContain('ALICE-PRIVATE-RESULT');
    expect(stolen.status).toBe(400);
    // Alice herself resumes her stream and gets her result back.
    const resumed = await resume(ALICE, alice, priming?.id as string);
    expect(resumed.status).toBe(200);
    expect(resumed.text).toContain('ALICE-PRIVATE-RESULT');
    await close(ALICE, alice);
    await close(BOB, bob);
  });

  it('GW-02 events are bounded per session and in total, and dropped when their sessions close', async () => {
    expect(served.gateway.stats()).toEqual({ sessions: 0, events: 0, eventBytes: 0 });
    const sessions = [await open(ALICE), await open(ALICE), await open(BOB)];
    const owner = (index: number) => (index < 2 ? ALICE : BOB);
    const first: string[] = [];
    // Each result is about 400 bytes: 15 of them are more than one session may keep.
    for (let i = 0; i < 15; i++)
      for (const [index, session] of sessions.entries()) {
        const called = await callTool(owner(index), session, `call ${i}`);
        expect(called.status).toBe(200);
        if (i === 0) first.push(called.events[0]?.id as string);
      }
    const held = served.gateway.stats();
    expect(held.sessions).toBe(3);
    expect(held.events).toBeGreaterThan(0);
    expect(held.eventBytes).toBeLessThanOrEqual(LIMITS.eventStore.maxBytesTotal);
    // The oldest events went first: resuming from one is refused, never a silent gap.
    expect((await resume(ALICE, sessions[0] as string, first[0] as string)).status).toBe(400);
    for (const [index, session] of sessions.entries())
      expect((await close(owner(index), session)).status).toBe(200);
    expect(served.gateway.stats()).toEqual({ sessions: 0, events: 0, eventBytes: 0 });
  });

  it("GW-06 one tenant's busy streams fill the store; another tenant's resumable events are untouched", async () => {
    const bob = await open(BOB);
    const [bobPriming] = (await callTool(BOB, bob, 'BOB-RESULT')).events;
    const busy = [await open(ALICE), await open(ALICE), await open(ALICE)];
    // Three full sessions are more than the whole store may keep.
    for (let i = 0; i < 15; i++) for (const session of busy) await callTool(ALICE, session, `${i}`);
    expect(served.gateway.stats().eventBytes).toBeLessThanOrEqual(LIMITS.eventStore.maxBytesTotal);
    const resumed = await resume(BOB, bob, bobPriming?.id as string);
    expect(resumed.status).toBe(200);
    expect(resumed.text).toContain('BOB-RESULT');
    for (const session of busy) await close(ALICE, session);
    await close(BOB, bob);
  });

  it('GW-03 sessions per user are capped; an idle session expires and releases what it held', async () => {
    const held = [await open(ALICE), await open(ALICE), await open(ALICE)];
    const refused = await post(ALICE, undefined, {
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: PROTOCOL,
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      },
    });
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text).error.message).toMatch(
      /Too many sessions: this user has 3 open.*maxSessionsPerUser.*DELETE \/mcp/,
    );
    const bob = await open(BOB); // another user is not affected
    expect((await close(ALICE, held[0] as string)).status).toBe(200);
    held[0] = await open(ALICE); // a closed session frees its place
    for (const session of held) await callTool(ALICE, session, 'before the break');
    expect(served.gateway.stats()).toMatchObject({ sessions: 4 });

    // A session whose SSE stream is open is in use, however long; the others go idle.
    const listening = new AbortController();
    const stream = await fetch(served.url, {
      method: 'GET',
      headers: headers(BOB, bob),
      signal: listening.signal,
    });
    expect(stream.status).toBe(200);
    clock.advance(LIMITS.sessionIdleMs - 1);
    expect(await served.gateway.expireIdleSessions()).toBe(0);
    clock.advance(1);
    expect(await served.gateway.expireIdleSessions()).toBe(3);
    expect(served.gateway.stats()).toMatchObject({ sessions: 1 });
    const expired = await callTool(ALICE, held[1] as string, 'after the break');
    expect(expired.status).toBe(404);

    listening.abort();
    await stream.body?.cancel().catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the server sees the stream close
    clock.advance(LIMITS.sessionIdleMs);
    expect(await served.gateway.expireIdleSessions()).toBe(1);
    expect(served.gateway.stats()).toEqual({ sessions: 0, events: 0, eventBytes: 0 });
  });
});
