import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WireMode } from '@mcp-agent/wire';
import { serveHttpGateway } from './serve-http-gateway.js';
import { StaticTokenVerifier } from '../auth/token-verifier.js';
import {
  call,
  counted,
  expectDivergences,
  expectLanesOff,
  expectServerAnswers,
  MESSAGES,
  PROTOCOL,
  rpc,
  useConformanceStacks,
} from './wire-differential-test-helpers.js';

// The wire differential over streamable HTTP: the same JSON-RPC messages through both wire paths
// of the HTTP gateway (wire-differential-test-helpers.ts), and the bytes compared: status, the
// headers a client reads, and the bodies with session and event ids normalised. Every difference
// is in DIVERGENCES with its reason, and the test asserts exactly that list.

const TOKEN = `alice-${randomBytes(12).toString('hex')}`;
const stacks = useConformanceStacks();
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

/** What one step of the script saw: the parts of an HTTP exchange a client reads. */
interface Exchange {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

// The headers a client acts on; the rest (date, keep-alive, transfer-encoding) say nothing of MCP.
const HEADERS = ['content-type', 'cache-control', 'mcp-session-id', 'content-length', 'allow'];

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

beforeAll(async () => {
  for (const wire of ['lanes', 'sdk'] as const)
    served[wire] = await serveHttpGateway({
      stack: stacks.stack(wire),
      port: 0,
      verifier: new StaticTokenVerifier({ [TOKEN]: 'alice' }),
      wire,
    });
});

afterAll(async () => {
  await served.lanes?.close();
  await served.sdk?.close();
});

describe('the wire differential: the lanes and MCP_AGENT_WIRE=sdk give the same bytes', () => {
  it('sends one script through both paths; they differ exactly where DIVERGENCES says, and why', async () => {
    const onLanes = await counted(() => script((served.lanes as { url: string }).url));
    const onSdk = await counted(() => script((served.sdk as { url: string }).url));
    // The switch holds: the lanes answered the calls on one path, and nothing of them on the other.
    expect(onLanes.ran.callLaneCalls).toBeGreaterThan(0);
    expectLanesOff(onSdk.ran);
    const lanes = normalise(onLanes.result);
    const sdk = normalise(onSdk.result);
    if (process.env.DIFF_DUMP) console.log(JSON.stringify({ lanes, sdk }, null, 1));
    const get = (name: string) => lanes.find(([step]) => step === name)?.[1] as Exchange;
    // The script did what it says on the lanes: the server's answers came through the gateway.
    expectServerAnswers((name) => get(name).body);
    expect(get('tools/call invalid params shape').body).toMatch(
      /"code":-32602,"message":"Invalid params of tools\/call: params\.arguments: expected record/,
    );
    expect(sdk.map(([name]) => name)).toEqual(lanes.map(([name]) => name));

    expectDivergences(differences(lanes, sdk), DIVERGENCES);
  }, 120_000);
});
