import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { serverFixtures } from '@mcp-agent/test-support';
import { wireActivity, type WireMode } from '@mcp-agent/wire';

// What the wire differential tests (wire-differential-http.test.ts over streamable HTTP,
// wire-differential-stdio.test.ts over stdio) share: the script of JSON-RPC messages both send
// through both wire paths — the lanes (the gateway's own transport and call lane) and
// MCP_AGENT_WIRE=sdk (the SDK's transport and Server alone) — in front of one real MCP server
// (test-support's conformance fixture), a stack per path, and the comparison: every difference
// is listed with its reason, and a test asserts exactly its list, so a new one fails it, and so
// does one that went away.

export const PROTOCOL = '2025-11-25';

export const rpc = (message: object) => JSON.stringify({ jsonrpc: '2.0', ...message });
export const call = (id: number, tool: string, args: object, meta?: object) =>
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
export const MESSAGES: [string, string][] = [
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

/**
 * Where the paths may differ, from run to run: `sdk`'s pool is the SDK's Client, which drops a
 * progress notification that arrives in the same read as the result (its progress handler is gone
 * by then); the lanes deliver every progress before the response (`deliverProgressBeforeResponses`).
 */
const SOMETIMES: Record<string, string> = {
  'call_tool with progress body': 'the SDK client may drop the last progress notification',
  'stdio call_tool with progress': 'the SDK client may drop the last progress notification',
};

/**
 * Fails unless `found` holds every divergence `listed` (where the two paths differ, always: the
 * difference's name → why) and nothing beyond those and the ones that come and go (SOMETIMES).
 */
export function expectDivergences(
  found: Map<string, { lanes: unknown; sdk: unknown }>,
  listed: Record<string, string>,
) {
  const report = [...found].map(
    ([key, { lanes, sdk }]) =>
      `${key}${key in listed || key in SOMETIMES ? '' : ' (NOT LISTED)'}\n  lanes: ${JSON.stringify(lanes)}\n  sdk:   ${JSON.stringify(sdk)}`,
  );
  const always = [...found.keys()].filter((key) => !(key in SOMETIMES));
  expect(always.sort(), report.join('\n')).toEqual(Object.keys(listed).sort());
}

/**
 * What the script's requests got from the conformance server through the gateway, the same on
 * either transport: `answerOf` gives what one step of the script received.
 */
export function expectServerAnswers(answerOf: (step: string) => string): void {
  expect(answerOf('call_tool success')).toContain('\\"hi\\"');
  expect(answerOf('call_tool error result')).toContain('"isError":true');
  expect(answerOf('call_tool with progress').match(/notifications\/progress/g)).toHaveLength(3);
  expect(answerOf('unknown method')).toContain('-32601');
  // Invalid params are -32602 naming the field and what it must be (the SDK: -32603, zod's JSON).
  expect(answerOf('tools/call invalid params')).toContain(
    '"code":-32602,"message":"Invalid params of tools/call: params.name: expected string, received number.',
  );
}

/** Runs `script` and gives what it returned with how often each part of the wire ran meanwhile. */
export async function counted<T>(script: () => Promise<T>) {
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

/** The switch holds: nothing of the lanes ran on the `sdk` path (`ran` from {@link counted}). */
export function expectLanesOff(ran: Record<string, number>): void {
  expect(
    Object.values(ran).every((count) => count === 0),
    JSON.stringify(ran),
  ).toBe(true);
}

/**
 * Opens a stack per wire path before the file's tests (its pool on the same wire as its gateway:
 * `sdk` is the SDK alone end to end), each with alice's conformance server, its catalog known
 * before the script (search_tools' description names its tools from then); closes them, and
 * their folder, after. A test file's own hooks registered after this run after these open and
 * before these close (vitest's hook order, `sequence.hooks: 'stack'`).
 */
export function useConformanceStacks(): { stack(wire: WireMode): AgentStack } {
  const home = mkdtempSync(join(tmpdir(), 'mcp-wire-differential-'));
  const stacks: Partial<Record<WireMode, AgentStack>> = {};
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
      await stack.pool.warmUp(ctx, { timeoutMs: 30_000, serverIds: ['conformance'] });
    }
  }, 60_000);
  afterAll(async () => {
    await stacks.lanes?.close();
    await stacks.sdk?.close();
    rmSync(home, { recursive: true, force: true });
  });
  return {
    stack(wire) {
      const stack = stacks[wire];
      if (stack === undefined)
        throw new Error(`the ${wire} stack is used before beforeAll opened it`);
      return stack;
    },
  };
}
