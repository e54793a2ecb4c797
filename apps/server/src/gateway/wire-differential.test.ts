import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { serverFixtures } from '@mcp-agent/test-support';
import { wireActivity, type WireMode } from '@mcp-agent/wire';
import { PassThrough } from 'node:stream';
import { serveHttpGateway } from './serve-http-gateway.js';
import { serveStdioGateway } from './stdio-gateway.js';
import { StaticTokenVerifier } from '../auth/token-verifier.js';

// The same JSON-RPC messages through both wire paths of the HTTP gateway — the lanes (the
// gateway's session transport and call lane) and MCP_AGENT_WIRE=sdk (the SDK's transport and
// Server alone) — in front of one real MCP server (test-support's conformance fixture), and the
// bytes compared: status, the headers a client reads, and the bodies with session and event ids
// normalised. Every difference is in DIVERGENCES with its reason, and the test asserts exactly
// that list: a new one fails it, and so does one that went away.

const PROTOCOL = '2025-11-25';
const TOKEN = `alice-${randomBytes(12).toString('hex')}`;
const home = mkdtempSync(join(tmpdir(), 'mcp-wire-differential-'));
// A stack per path, its pool on the same wire as its gateway: `sdk` is the SDK alone end to end.
const stacks: Partial<Record<WireMode, AgentStack>> = {};
const served: Partial<Record<WireMode, Awaited<ReturnType<typeof serveHttpGateway>>>> = {};

const FIRST_409 =
  "the first of the two 409s: a request whose id is still being answered in the session gets 409 and a JSON-RPC error on the lanes (one registry of ids in flight); the SDK takes it, answers it, and leaves the first request without an answer (see 'the held stream')";
const SECOND_409 =
  'the second 409: resuming a stream another connection still holds takes it over on the lanes (a client whose connection died unnoticed gets its stream back); the SDK answers 409 Conflict';
/** Where the two paths differ, always: `<step> <status|header name|body>` → why. */
const DIVERGENCES: Record<string, string> = {
  'parse error header content-length':
    'framing only: the lanes hand a body that is not JSON to the SDK transport through @hono/node-server, which streams the same 400 body without Content-Length; the SDK path on Node sets it',
  'resume an answered stream body':
    'the lanes end a resumed stream once its answer was replayed (nothing more can follow); the SDK keeps it open until the client closes it (marked <still open>)',
  'same id while in flight status': FIRST_409,
  'same id while in flight header content-type': FIRST_409,
  'same id while in flight header cache-control': FIRST_409,
  'same id while in flight header mcp-session-id': FIRST_409,
  'same id while in flight body': FIRST_409,
  'resume a stream still held status': SECOND_409,
  'resume a stream still held header content-type': SECOND_409,
  'resume a stream still held header cache-control': SECOND_409,
  'resume a stream still held header mcp-session-id': SECOND_409,
  'resume a stream still held header content-length': SECOND_409,
  'resume a stream still held body': SECOND_409,
  'the held stream body':
    'after the two 409s: on the lanes the held stream ends when the resume takes it over (its answer went there); on the SDK it stays open without its answer (the SDK answered the duplicate id instead)',
};

/**
 * Where the paths may differ, from run to run: `sdk`'s pool is the SDK's Client, which drops a
 * progress notification that arrives in the same read as the result (its progress handler is gone
 * by then); the lanes deliver every progress before the response (`deliverProgressBeforeResponses`).
 */
const SOMETIMES: Record<string, string> = {
  'call_tool with progress body': 'the SDK client may drop the last progress notification',
  'stdio call_tool with progress': 'the SDK client may drop the last progress notification',
};

/** Fails unless `found` holds every listed divergence and nothing beyond those and SOMETIMES. */
function expectDivergences(found: Map<string, { lanes: unknown; sdk: unknown }>, listed: string[]) {
  const report = [...found].map(
    ([key, { lanes, sdk }]) =>
      `${key}${key in DIVERGENCES || key in SOMETIMES ? '' : ' (NOT LISTED)'}\n  lanes: ${JSON.stringify(lanes)}\n  sdk:   ${JSON.stringify(sdk)}`,
  );
  const always = [...found.keys()].filter((key) => !(key in SOMETIMES));
  expect(always.sort(), report.join('\n')).toEqual([...listed].sort());
}

/** What one step of the script saw: the parts of an HTTP exchange a client reads. */
interface Exchange {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

// The headers a client acts on; the rest (date, keep-alive, transfer-encoding) say nothing of MCP.
const HEADERS = ['content-type', 'cache-control', 'mcp-session-id', 'content-length', 'allow'];

const rpc = (message: object) => JSON.stringify({ jsonrpc: '2.0', ...message });
const call = (id: number, tool: string, args: object, meta?: object) =>
  rpc({
    id,
    method: 'tools/call',
    params: {
      name: 'call_tool',
      arguments: { tool_id: `conformance.${tool}`, arguments: args },
      ...(meta === undefined ? {} : { _meta: meta }),
    },
  });

/** The messages both scripts send, over either transport, in this order: `[step, message]`. */
const MESSAGES: [string, string][] = [
  [
    'initialize',
    rpc({
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: PROTOCOL,
        capabilities: {},
        clientInfo: { name: 'differential', version: '1' },
      },
    }),
  ],
  ['initialized notification', rpc({ method: 'notifications/initialized' })],
  ['tools/list', rpc({ id: 2, method: 'tools/list' })],
  [
    'describe_tools',
    rpc({
      id: 3,
      method: 'tools/call',
      params: {
        name: 'describe_tools',
        arguments: {
          tool_ids: [
            'conformance.test_echo',
            'conformance.test_error_handling',
            'conformance.test_tool_with_progress',
          ],
        },
      },
    }),
  ],
  ['call_tool success', call(4, 'test_echo', { message: 'hi' })],
  ['call_tool error result', call(5, 'test_error_handling', {})],
  ['call_tool with progress', call(6, 'test_tool_with_progress', {}, { progressToken: 'p-6' })],
  ['call_tool invalid arguments', call(7, 'test_echo', { message: 42 })],
  ['tools/call invalid params', rpc({ id: 8, method: 'tools/call', params: { name: 42 } })],
  [
    'tools/call invalid params shape',
    rpc({ id: 18, method: 'tools/call', params: { name: 'call_tool', arguments: 'x' } }),
  ],
  [
    'tools/call unknown tool',
    rpc({ id: 9, method: 'tools/call', params: { name: 'no_such_tool' } }),
  ],
  ['unknown method', rpc({ id: 10, method: 'no/such/method' })],
  ['ping', rpc({ id: 11, method: 'ping' })],
  [
    'batch',
    JSON.stringify([
      { jsonrpc: '2.0', id: 12, method: 'ping' },
      { jsonrpc: '2.0', id: 13, method: 'tools/list' },
    ]),
  ],
  [
    'notification: cancel of no request',
    rpc({ method: 'notifications/cancelled', params: { requestId: 999, reason: 'none' } }),
  ],
  ['response to no request', rpc({ id: 77, result: {} })],
  ['parse error', '{"jsonrpc": "2.0", "id": 14, "method": '],
];

/** One client of one path: sends, reads whole answers, and writes down what it saw. */
function client(url: string) {
  let session: string | undefined;
  const headers = (extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${TOKEN}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(session === undefined
      ? {}
      : { 'mcp-session-id': session, 'mcp-protocol-version': PROTOCOL }),
    ...extra,
  });
  const send = (init: RequestInit, extra: Record<string, string> = {}) =>
    fetch(url, { ...init, headers: headers(extra) });
  return {
    headers,
    send,
    /** Reads an answer (see {@link read}); the first answer with a session id opens it. */
    read: async (response: Response, until?: number, onFirstEvent?: (event: string) => void) => {
      const exchange = await read(response, until, onFirstEvent);
      session ??= exchange.headers['mcp-session-id'];
      return exchange;
    },
  };
}

/**
 * The exchange of a response: its status, the headers a client acts on, and its body to its end;
 * with `until`, to the event that answers that id and then up to 2 s more for its end (a resumed
 * SSE stream may stay open), marked `<still open>` if it did not end; a stream silent for 8 s
 * before its answer is marked so too. Margins for a loaded machine; a path's answers take ms.
 */
async function read(
  response: Response,
  until?: number,
  onFirstEvent?: (event: string) => void,
): Promise<Exchange> {
  const headers: Record<string, string> = {};
  for (const name of HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  if (response.body === null) return { status: response.status, headers, body: '' };
  const stream = response.body.getReader();
  const decoder = new TextDecoder();
  let body = '';
  let first = onFirstEvent;
  for (;;) {
    const answered = until !== undefined && body.includes(`"id":${until}`) && body.endsWith('\n\n');
    let timer: NodeJS.Timeout | undefined;
    const chunk = await Promise.race([
      stream.read(),
      new Promise<'open'>((resolve) => {
        timer = setTimeout(() => resolve('open'), answered ? 2_000 : 8_000);
      }),
    ]).finally(() => clearTimeout(timer));
    if (chunk === 'open') {
      await stream.cancel().catch(() => undefined);
      body += '<still open>';
      break;
    }
    if (chunk.done) break;
    body += decoder.decode(chunk.value, { stream: true });
    if (first !== undefined && body.includes('\n\n')) {
      first(body.slice(0, body.indexOf('\n\n')));
      first = undefined;
    }
  }
  return { status: response.status, headers, body };
}

const eventId = (event: string) => /^id: (.+)$/m.exec(event)?.[1] ?? '';

/** Runs the script on one path and gives each step's exchange, by step name, in order. */
async function script(url: string): Promise<[string, Exchange][]> {
  const steps: [string, Exchange][] = [];
  const c = client(url);
  const post = (body: string, until?: number) =>
    c.send({ method: 'POST', body }).then((response) => c.read(response, until));
  const step = async (name: string, exchange: Promise<Exchange>) => {
    const seen = await exchange;
    steps.push([name, seen]);
    return seen;
  };
  for (const [name, body] of MESSAGES) await step(name, post(body));
  const echoed = steps.find(([name]) => name === 'call_tool success')?.[1] as Exchange;
  // A resume from the priming event of an answered call: what followed it, its answer.
  await step(
    'resume an answered stream',
    c
      .send({ method: 'GET' }, { 'last-event-id': eventId(echoed.body) })
      .then((response) => c.read(response, 4)),
  );
  // A call in flight (3 s, room for both steps on a loaded machine): its id again (the first of the two 409s), then a resume of its
  // stream while the first connection still holds it (the second).
  const slow = await c.send({
    method: 'POST',
    body: call(15, 'test_echo', { message: 'slow', delayMs: 3_000 }),
  });
  const priming = Promise.withResolvers<string>();
  const held = c.read(slow, 15, priming.resolve);
  const primingId = eventId(await priming.promise);
  await step('same id while in flight', post(call(15, 'test_echo', { message: 'again' })));
  await step(
    'resume a stream still held',
    c
      .send({ method: 'GET' }, { 'last-event-id': primingId })
      .then((response) => c.read(response, 15)),
  );
  await step('the held stream', held);
  await step(
    'DELETE',
    c.send({ method: 'DELETE' }).then((response) => c.read(response)),
  );
  await step('after DELETE', post(rpc({ id: 16, method: 'ping' })));
  await step(
    'unknown session id',
    c
      .send(
        { method: 'POST', body: rpc({ id: 17, method: 'ping' }) },
        { 'mcp-session-id': randomBytes(16).toString('hex') },
      )
      .then((response) => c.read(response)),
  );
  return steps;
}

/**
 * The session id becomes `<session>` and each SSE event id `<event S.K>`: the Kth new id of step
 * S, so a resume's replayed event names the step that first sent it, and a path that sends one
 * event less in a step (see SOMETIMES) shifts the names of that step only.
 */
function normalise(steps: [string, Exchange][]): [string, Exchange][] {
  const session = steps[0]?.[1].headers['mcp-session-id'] ?? '<none>';
  const events = new Map<string, string>();
  return steps.map(([name, { status, headers, body }], index) => {
    let fresh = 0;
    const text = (value: string) =>
      value.replaceAll(session, '<session>').replace(/^id: (.+)$/gm, (_line, id: string) => {
        if (!events.has(id)) events.set(id, `<event ${index + 1}.${++fresh}>`);
        return `id: ${events.get(id)}`;
      });
    return [
      name,
      {
        status,
        headers: Object.fromEntries(
          Object.entries(headers).map(([key, value]) => [key, text(value)]),
        ),
        body: text(body),
      },
    ];
  });
}

/** Where two transcripts differ: `<step> status|body|header <name>` → both sides. */
function differences(lanes: [string, Exchange][], sdk: [string, Exchange][]) {
  const found = new Map<string, { lanes: unknown; sdk: unknown }>();
  lanes.forEach(([name, a], index) => {
    const b = sdk[index]?.[1] as Exchange;
    if (a.status !== b.status) found.set(`${name} status`, { lanes: a.status, sdk: b.status });
    for (const header of new Set([...Object.keys(a.headers), ...Object.keys(b.headers)]))
      if (a.headers[header] !== b.headers[header])
        found.set(`${name} header ${header}`, {
          lanes: a.headers[header],
          sdk: b.headers[header],
        });
    if (a.body !== b.body) found.set(`${name} body`, { lanes: a.body, sdk: b.body });
  });
  return found;
}

/**
 * The stdio gateway's script: each message as one line, then a ping whose answer marks the end
 * of what the message caused (so a message answered with nothing shows as nothing, without a
 * wait), and the lines written for it. Gives, per step, the lines the gateway wrote.
 */
async function stdioScript(wire: WireMode): Promise<[string, string][]> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stack = stacks[wire] as AgentStack;
  const gateway = await serveStdioGateway({ stack, userId: 'alice', stdin, stdout, wire });
  let out = '';
  let arrived = () => {};
  stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    arrived();
  });
  let marker = 1_000;
  const steps: [string, string][] = [];
  // Whether the gateway wrote the answer to `id` (a line with that id and a result or an error).
  const answered = (id: number) =>
    out.split('\n').some((line) => {
      try {
        const message = JSON.parse(line) as { id?: unknown; result?: unknown; error?: unknown };
        return message.id === id && (message.result !== undefined || message.error !== undefined);
      } catch {
        return false;
      }
    });
  const until = async (id: number) => {
    const deadline = Date.now() + 20_000;
    while (!answered(id)) {
      if (Date.now() > deadline) throw new Error(`no answer to ${id} on ${wire}; it wrote ${out}`);
      await new Promise<void>((resolve) => {
        arrived = resolve;
        setTimeout(resolve, 1_000);
      });
    }
  };
  // A request's answer first (a call is answered after the ping would be), then the ping's.
  const step = async (name: string, line: string) => {
    stdin.write(`${line}\n`);
    const id = /^\{"jsonrpc":"2.0","id":(\d+),"method"/.exec(line)?.[1];
    if (id !== undefined) await until(Number(id));
    const ping = ++marker;
    stdin.write(`${rpc({ id: ping, method: 'ping' })}\n`);
    await until(ping);
    const lines = out.split('\n').filter((l) => l !== '' && !l.endsWith(`"id":${ping}}`));
    out = '';
    steps.push([name, lines.join('\n')]);
  };
  for (const [name, line] of MESSAGES) await step(name, line);
  await step('not JSON-RPC', JSON.stringify({ id: 15, hello: 'world' }));
  // JSON-RPC 2.0 by its "jsonrpc", refused by the SDK's schema (a key a request has not); its
  // answer has no id, so the step waits for the ping only.
  await step(
    'not a JSON-RPC request',
    JSON.stringify({ extra: true, jsonrpc: '2.0', id: 19, method: 'ping' }),
  );
  await gateway.close();
  return steps;
}

beforeAll(async () => {
  const ctx = createContext({ userId: 'alice' });
  for (const wire of ['lanes', 'sdk'] as const) {
    const stack = await openAgentStack({
      home: join(home, wire),
      env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
      sandbox: false,
      pool: { wire },
    });
    stacks[wire] = stack;
    await stack.registry.addServer(ctx, {
      id: 'conformance',
      transport: 'stdio',
      command: process.execPath,
      args: [serverFixtures.conformance],
    });
    // Its catalog known before the script: search_tools' description names its tools from then.
    await stack.pool.warmUp(ctx, { timeoutMs: 30_000, serverIds: ['conformance'] });
    served[wire] = await serveHttpGateway({
      stack,
      port: 0,
      verifier: new StaticTokenVerifier({ [TOKEN]: 'alice' }),
      wire,
    });
  }
}, 60_000);

afterAll(async () => {
  await served.lanes?.close();
  await served.sdk?.close();
  await stacks.lanes?.close();
  await stacks.sdk?.close();
  rmSync(home, { recursive: true, force: true });
});

/** Runs `script` and gives what it returned with how often each part of the wire ran meanwhile. */
async function counted<T>(script: () => Promise<T>) {
  const before = wireActivity();
  const result = await script();
  const after = wireActivity();
  const ran = Object.fromEntries(
    Object.entries(after).map(([part, count]) => [
      part,
      count - before[part as keyof typeof before],
    ]),
  );
  return { result, ran };
}

describe('the wire differential: the lanes and MCP_AGENT_WIRE=sdk give the same bytes', () => {
  it('sends one script through both paths; they differ exactly where DIVERGENCES says, and why', async () => {
    const onLanes = await counted(() => script((served.lanes as { url: string }).url));
    const onSdk = await counted(() => script((served.sdk as { url: string }).url));
    // The switch holds: the lanes answered the calls on one path, and nothing of them on the other.
    expect(onLanes.ran.callLaneCalls).toBeGreaterThan(0);
    expect(
      Object.values(onSdk.ran).every((count) => count === 0),
      JSON.stringify(onSdk.ran),
    ).toBe(true);
    const lanes = normalise(onLanes.result);
    const sdk = normalise(onSdk.result);
    if (process.env.DIFF_DUMP) console.log(JSON.stringify({ lanes, sdk }, null, 1));
    const get = (name: string) => lanes.find(([step]) => step === name)?.[1] as Exchange;
    // The script did what it says on the lanes: the server's answers came through the gateway.
    expect(get('call_tool success').body).toContain('\\"hi\\"');
    expect(get('call_tool error result').body).toContain('"isError":true');
    expect(get('call_tool with progress').body.match(/notifications\/progress/g)).toHaveLength(3);
    expect(get('unknown method').body).toContain('-32601');
    // Invalid params are -32602 naming the field and what it must be (the SDK: -32603, zod's JSON).
    expect(get('tools/call invalid params').body).toContain(
      '"code":-32602,"message":"Invalid params of tools/call: params.name: expected string, received number.',
    );
    expect(get('tools/call invalid params shape').body).toMatch(
      /"code":-32602,"message":"Invalid params of tools\/call: params\.arguments: expected record/,
    );
    expect(sdk.map(([name]) => name)).toEqual(lanes.map(([name]) => name));

    expectDivergences(
      differences(lanes, sdk),
      Object.keys(DIVERGENCES).filter((key) => !key.startsWith('stdio ')),
    );
  }, 120_000);

  it('sends one script of lines through both paths of the stdio gateway; the same lines come back, a line that is not one message answered (GW-04)', async () => {
    const onLanes = await counted(() => stdioScript('lanes'));
    const onSdk = await counted(() => stdioScript('sdk'));
    expect(onLanes.ran.stdioLineTransports).toBe(1);
    expect(onLanes.ran.callLaneCalls).toBeGreaterThan(0);
    expect(
      Object.values(onSdk.ran).every((count) => count === 0),
      JSON.stringify(onSdk.ran),
    ).toBe(true);
    const lanes = onLanes.result;
    const sdk = onSdk.result;
    if (process.env.DIFF_DUMP) console.log(JSON.stringify({ lanes, sdk }, null, 1));
    const get = (name: string) => lanes.find(([step]) => step === name)?.[1] as string;
    expect(get('call_tool success')).toContain('\\"hi\\"');
    expect(get('call_tool error result')).toContain('"isError":true');
    expect(get('unknown method')).toContain('-32601');
    expect(get('call_tool with progress').match(/notifications\/progress/g)).toHaveLength(3);
    expect(get('tools/call invalid params')).toContain(
      '"code":-32602,"message":"Invalid params of tools/call: params.name: expected string, received number.',
    );
    // A line that is not one JSON-RPC message is answered (id null), and the session goes on
    // (each step ends with a ping's answer).
    expect(get('parse error')).toMatch(
      /^\{"jsonrpc":"2.0","id":null,"error":\{"code":-32700,"message":"Parse error: the line is not JSON \(Unexpected end of JSON input\)\./,
    );
    expect(get('batch')).toMatch(
      /^\{"jsonrpc":"2.0","id":null,"error":\{"code":-32600,"message":"Invalid Request: the line is a JSON-RPC batch/,
    );
    expect(get('not a JSON-RPC request')).toMatch(
      /^\{"jsonrpc":"2.0","id":null,"error":\{"code":-32600,"message":"Invalid Request: the line is not a JSON-RPC 2.0 message\./,
    );
    expect(get('not JSON-RPC')).toMatch(
      /^\{"jsonrpc":"2.0","id":null,"error":\{"code":-32600,"message":"Invalid Request: the line is not a JSON-RPC 2.0 message\./,
    );
    const found = new Map<string, { lanes: string; sdk: string }>();
    lanes.forEach(([name, lines], index) => {
      const other = sdk[index]?.[1] ?? '<missing>';
      if (lines !== other) found.set(`stdio ${name}`, { lanes: lines, sdk: other });
    });
    expectDivergences(
      found,
      Object.keys(DIVERGENCES).filter((key) => key.startsWith('stdio ')),
    );
  }, 60_000);
});
