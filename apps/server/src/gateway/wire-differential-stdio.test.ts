import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { WireMode } from '@mcp-agent/wire';
import { serveStdioGateway } from './stdio-gateway.js';
import {
  counted,
  expectDivergences,
  expectLanesOff,
  expectServerAnswers,
  MESSAGES,
  rpc,
  useConformanceStacks,
} from './wire-differential-test-helpers.js';

// The wire differential over stdio: the same JSON-RPC messages, a line each, through both wire
// paths of the stdio gateway (wire-differential-test-helpers.ts), and the lines it wrote for each
// compared. Every difference would be in DIVERGENCES with its reason; there is none.

const stacks = useConformanceStacks();

/** Where the two paths differ, always: `stdio <step>` → why. None: the same lines come back. */
const DIVERGENCES: Record<string, string> = {};

/**
 * The stdio gateway's script: each message as one line, then a ping whose answer marks the end
 * of what the message caused (so a message answered with nothing shows as nothing, without a
 * wait), and the lines written for it. Gives, per step, the lines the gateway wrote.
 */
async function stdioScript(wire: WireMode): Promise<[string, string][]> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stack = stacks.stack(wire);
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

describe('the wire differential: the lanes and MCP_AGENT_WIRE=sdk give the same bytes', () => {
  it('sends one script of lines through both paths of the stdio gateway; the same lines come back, a line that is not one message answered (GW-04)', async () => {
    const onLanes = await counted(() => stdioScript('lanes'));
    const onSdk = await counted(() => stdioScript('sdk'));
    expect(onLanes.ran.stdioLineTransports).toBe(1);
    expect(onLanes.ran.callLaneCalls).toBeGreaterThan(0);
    expectLanesOff(onSdk.ran);
    const lanes = onLanes.result;
    const sdk = onSdk.result;
    if (process.env.DIFF_DUMP) console.log(JSON.stringify({ lanes, sdk }, null, 1));
    const get = (name: string) => lanes.find(([step]) => step === name)?.[1] as string;
    expectServerAnswers(get);
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
    expectDivergences(found, DIVERGENCES);
  }, 60_000);
});
