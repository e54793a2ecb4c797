import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext, type ActionResponse } from '@mcp-agent/core';
import { createManualClock } from '@mcp-agent/core/testing';
import { MemoryObservationStore } from '@mcp-agent/execution';
import { ConnectionPool, type Registry } from '@mcp-agent/registry';
import { createTestRegistry } from '@mcp-agent/registry/testing';
import { Dispatcher, type DispatcherOptions } from './dispatcher.js';
import { changedToolLink, MemoryToolApprovals } from './links/changed-tool-link.js';
import { DispatchMetrics } from './links/metrics-link.js';
import { policyLink } from './links/policy-link.js';
import { rateLimitLink } from './links/rate-limit-link.js';

const scripted = fileURLToPath(
  new URL('../../registry/src/testing/fixtures/scripted-server.mjs', import.meta.url),
);
const clock = createManualClock();
const alice = createContext({ userId: 'alice', clock });
const bob = createContext({ userId: 'bob', clock });

const issueTool = {
  name: 'create_issue',
  description: 'Create an issue',
  inputSchema: {
    type: 'object',
    properties: {
      repo: { type: 'string', pattern: '^[\\w.-]+/[\\w.-]+$' },
      title: { type: 'string', maxLength: 200 },
      labels: { type: 'array', items: { type: 'string' } },
      priority: { type: 'string', enum: ['low', 'high'] },
      due: { type: 'string', format: 'date' },
    },
    required: ['repo', 'title'],
    additionalProperties: false,
  },
};
const githubScript = {
  tools: [
    issueTool,
    {
      name: 'delete_repo',
      description: 'Delete',
      inputSchema: { type: 'object' },
      annotations: { destructiveHint: true },
    },
    { name: 'fails', inputSchema: { type: 'object' } },
    {
      name: 'typed',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    },
    {
      name: 'typed_bad',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    },
    {
      name: 'broken_schema',
      inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } },
    },
    {
      name: 'recursive',
      inputSchema: {
        $defs: { node: { type: 'object', properties: { child: { $ref: '#/$defs/node' } } } },
        $ref: '#/$defs/node',
      },
    },
    {
      name: 'send_email',
      inputSchema: {
        type: 'object',
        properties: { recipient_email: { type: 'string' }, body: { type: 'string' } },
        required: ['recipient_email'],
        additionalProperties: false,
      },
    },
    { name: 'big', inputSchema: { type: 'object' } },
    { name: '__proto__', inputSchema: { type: 'object' } },
    { name: 'then', inputSchema: { type: 'object' } },
    {
      name: 'a"b',
      inputSchema: { type: 'object' },
      description: '*/ `${process.exit()}` </script> \u0000 \u200b',
    },
    { name: 'Send_Email', inputSchema: { type: 'object' } },
  ],
  results: {
    fails: {
      isError: true,
      content: [{ type: 'text', text: 'rate limit at upstream: try later' }],
    },
    typed: { structuredContent: { n: 3 }, content: [{ type: 'text', text: '{"n":3}' }] },
    typed_bad: {
      structuredContent: { n: 'three' },
      content: [{ type: 'text', text: '{"n":"three"}' }],
    },
    big: { content: [{ type: 'text', text: 'lorem ipsum '.repeat(2_000) }] },
  },
};

let registry: Registry;
let pool: ConnectionPool;
const dir = mkdtempSync(join(tmpdir(), 'mcp-dispatch-'));

async function addScripted(ctx = alice, id = 'github', script: object = githubScript) {
  const file = join(dir, `${ctx.userId}-${id}.json`);
  writeFileSync(file, JSON.stringify(script));
  await registry.addServer(ctx, {
    id,
    transport: 'stdio',
    command: process.execPath,
    args: [scripted, file],
  });
  await pool.waitForReady(ctx, [id]);
}

function dispatcher(options: Partial<DispatcherOptions> = {}): Dispatcher {
  return new Dispatcher({ registry, pool, ...options });
}

async function serverCalls(ctx = alice, id = 'github'): Promise<number> {
  const result = await pool.callTool(ctx, id, '__calls', {});
  return Number((result.content as { text: string }[])[0]?.text);
}

function expectError(response: ActionResponse, code: string, message?: RegExp) {
  expect(response.ok, JSON.stringify(response)).toBe(false);
  if (response.ok) return;
  expect(response.error.code).toBe(code);
  if (message) expect(response.error.message).toMatch(message);
}

beforeEach(async () => {
  registry = await createTestRegistry();
  pool = new ConnectionPool(registry, { pingIntervalMs: 0, backoff: { baseMs: 10, capMs: 50 } });
  await addScripted();
});
afterEach(async () => {
  await pool.close();
  await registry.close();
});

describe('dispatchTool', () => {
  it('validates, calls through the pool and returns data with meta', async () => {
    const response = await dispatcher().dispatchTool(alice, 'github.create_issue', {
      repo: 'acme/app',
      title: 'Bug',
    });
    expect(response).toMatchObject({
      ok: true,
      data: JSON.stringify({ tool: 'create_issue', arguments: { repo: 'acme/app', title: 'Bug' } }),
      meta: { toolId: 'github.create_issue', truncated: false },
    });
    expect(response.meta.durationMs).toBeGreaterThan(0);
    expect(
      await dispatcher().dispatchTool(
        alice,
        { provider: 'github', tool: 'create_issue' },
        { repo: 'a/b', title: 't' },
      ),
    ).toMatchObject({ ok: true });
  });

  it.each([
    [
      'a wrong type',
      { repo: 'acme/app', title: 42 },
      /\/title expected must be string, got integer/,
    ],
    [
      'a missing required property',
      { repo: 'acme/app' },
      /\/title expected a value \(required\), got nothing/,
    ],
    [
      'an extra property',
      { repo: 'acme/app', title: 't', owner: 'x' },
      /\/owner expected no such property/,
    ],
    [
      'a value outside the enum',
      { repo: 'acme/app', title: 't', priority: 'urgent' },
      /\/priority expected one of \["low","high"\]/,
    ],
    [
      'a bad format',
      { repo: 'acme/app', title: 't', due: 'tomorrow' },
      /\/due expected must match format "date"/,
    ],
    [
      'a pattern mismatch',
      { repo: 'not a repo', title: 't' },
      /\/repo expected must match pattern/,
    ],
    ['an array instead of an object', ['acme/app'], /must be a JSON object, got an array/],
    [
      'a 10 MB string (BRG-03)',
      { repo: 'acme/app', title: 'x'.repeat(10_000_000) },
      /at most 1000000 are accepted/,
    ],
  ])(
    'BRG-03 rejects %s before any network call, naming path, expected and got',
    async (_name, payload, message) => {
      const response = await dispatcher().dispatchTool(alice, 'github.create_issue', payload);
      expectError(response, 'INVALID_ARGUMENTS', message);
      expect(await serverCalls()).toBe(0);
    },
  );

  it('BRG-03 rejects 10k-level nesting and cycles without blowing the stack', async () => {
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 10_000; i++) deep = (deep.next = {}) as Record<string, unknown>;
    expectError(
      await dispatcher().dispatchTool(alice, 'github.recursive', root),
      'INVALID_ARGUMENTS',
      /deeper than 64/,
    );
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expectError(
      await dispatcher().dispatchTool(alice, 'github.recursive', cyclic),
      'INVALID_ARGUMENTS',
    );
    expect(
      await dispatcher().dispatchTool(alice, 'github.recursive', { child: { child: {} } }),
    ).toMatchObject({ ok: true });
    expect(await serverCalls()).toBe(1);
  });

  it('a tool whose schema does not compile is refused with a clear error', async () => {
    expectError(
      await dispatcher().dispatchTool(alice, 'github.broken_schema', {}),
      'TOOL_EXECUTION_FAILED',
      /does not compile/,
    );
  });

  it('unknown provider, unknown tool, malformed id and an unavailable server each get their code', async () => {
    const d = dispatcher();
    expectError(
      await d.dispatchTool(alice, 'gitlab.create_issue', {}),
      'PROVIDER_NOT_FOUND',
      /not connected/,
    );
    expectError(
      await d.dispatchTool(alice, 'github.create_isue', {}),
      'TOOL_NOT_FOUND',
      /no tool "create_isue".*search_tools/,
    );
    expectError(await d.dispatchTool(alice, 'no-dot', {}), 'INVALID_ARGUMENTS', /Invalid tool id/);
    expectError(
      await d.dispatchTool(bob, 'github.create_issue', { repo: 'a/b', title: 't' }),
      'PROVIDER_NOT_FOUND',
    );
    await registry.recordState(alice, 'github', { status: 'failed', lastError: 'HTTP 502' });
    expectError(
      await d.dispatchTool(alice, 'github.create_issue', { repo: 'a/b', title: 't' }),
      'NOT_READY',
      /HTTP 502/,
    );
  });

  it('a server isError result becomes TOOL_EXECUTION_FAILED with the server text', async () => {
    expectError(
      await dispatcher().dispatchTool(alice, 'github.fails', {}),
      'TOOL_EXECUTION_FAILED',
      /rate limit at upstream/,
    );
  });

  it('BRG-04 structured content is checked against the output schema', async () => {
    expect(await dispatcher().dispatchTool(alice, 'github.typed', {})).toMatchObject({
      ok: true,
      data: { n: 3 },
    });
    expectError(
      await dispatcher().dispatchTool(alice, 'github.typed_bad', {}),
      'TOOL_EXECUTION_FAILED',
      /violates its output schema: \/n expected must be number/,
    );
  });

  it('slims big results through the envelope and keeps the full result by id', async () => {
    const observations = new MemoryObservationStore();
    const response = await dispatcher({ observations }).dispatchTool(alice, 'github.big', {});
    expect(response.ok).toBe(true);
    expect(response.meta.truncated).toBe(true);
    expect(String(response.ok && response.data)).toMatch(/truncated: 24000 chars/);
    expect(
      observations.page(alice, response.meta.observationId as string)?.totalChars,
    ).toBeGreaterThan(20_000);
  });

  it('maps legacy parameters (rename, default, drop) before validation', async () => {
    const d = dispatcher({
      mappings: {
        github: {
          send_email: {
            rename: { to: 'recipient_email' },
            defaults: { body: '(empty)' },
            drop: ['legacy_flag'],
          },
        },
      },
    });
    const response = await d.dispatchTool(alice, 'github.send_email', {
      to: 'a@example.com',
      legacy_flag: true,
    });
    expect(response).toMatchObject({
      ok: true,
      data: JSON.stringify({
        tool: 'send_email',
        arguments: { recipient_email: 'a@example.com', body: '(empty)' },
      }),
    });
  });

  it('BRG-01 hostile tool names are reached exactly, and names differing by case stay distinct', async () => {
    const d = dispatcher();
    for (const name of ['__proto__', 'then', 'a"b', 'Send_Email', 'send_email']) {
      const args = name === 'send_email' ? { recipient_email: 'x' } : {};
      const response = await d.dispatchTool(alice, `github.${name}`, args);
      expect(response.ok, name).toBe(true);
      expect(JSON.parse(String(response.ok && response.data)).tool).toBe(name);
    }
    expect(({} as Record<string, unknown>).then).toBeUndefined();
  });

  it('BRG-05 two servers exposing the same tool name are reached separately by namespace', async () => {
    await addScripted(alice, 'mail', { tools: [githubScript.tools[7]] });
    const d = dispatcher();
    const a = await d.dispatchTool(alice, 'github.send_email', { recipient_email: 'x' });
    const b = await d.dispatchTool(alice, 'mail.send_email', { recipient_email: 'y' });
    expect(a.ok && b.ok).toBe(true);
    expect(await serverCalls(alice, 'github')).toBe(1);
    expect(await serverCalls(alice, 'mail')).toBe(1);
  });
});

describe('middleware links', () => {
  it('policy: deny per tool, approval by the host, destructive annotations, callers', async () => {
    const approvals: string[] = [];
    const d = dispatcher({
      links: [
        policyLink(
          {
            tools: { 'github.fails': 'deny', 'github.typed': 'approve' },
            annotations: { destructiveHint: 'approve' },
            callers: { 'github.create_issue': ['model'] },
          },
          async (_ctx, call) => {
            approvals.push(call.toolId);
            return call.toolId === 'github.typed';
          },
        ),
      ],
    });
    expectError(
      await d.dispatchTool(alice, 'github.fails', {}),
      'POLICY_DENIED',
      /denied by policy/,
    );
    expect(await d.dispatchTool(alice, 'github.typed', {})).toMatchObject({ ok: true });
    expectError(
      await d.dispatchTool(alice, 'github.delete_repo', {}),
      'POLICY_DENIED',
      /not approved/,
    );
    expect(approvals).toEqual(['github.typed', 'github.delete_repo']);
    expectError(
      await d.dispatchTool(
        alice,
        'github.create_issue',
        { repo: 'a/b', title: 't' },
        { caller: 'code' },
      ),
      'POLICY_DENIED',
      /sandboxed code/,
    );
    expect(
      await d.dispatchTool(alice, 'github.create_issue', { repo: 'a/b', title: 't' }),
    ).toMatchObject({ ok: true });
    expect(await serverCalls()).toBe(2);
  });

  it('policy: approval required with no approver configured is denied', async () => {
    const d = dispatcher({ links: [policyLink({ tools: { 'github.*': 'approve' } })] });
    expectError(
      await d.dispatchTool(alice, 'github.typed', {}),
      'POLICY_DENIED',
      /no approver is configured/,
    );
  });

  it('POI-05 a readOnlyHint from the server does not lift a deny', async () => {
    await addScripted(alice, 'shady', {
      tools: [
        { name: 'wipe', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
      ],
    });
    const d = dispatcher({ links: [policyLink({ tools: { 'shady.*': 'deny' } })] });
    expectError(await d.dispatchTool(alice, 'shady.wipe', {}), 'POLICY_DENIED');
  });

  it('rate limit per tenant and connector, with retry-after', async () => {
    const d = dispatcher({
      links: [rateLimitLink({ providers: { github: { ratePerSecond: 1, burst: 2 } } })],
    });
    const call = () => d.dispatchTool(alice, 'github.typed', {});
    expect((await call()).ok).toBe(true);
    expect((await call()).ok).toBe(true);
    const limited = await call();
    expectError(limited, 'RATE_LIMITED', /try again in 1000 ms/);
    expect(!limited.ok && limited.error.details.retryAfterMs).toBe(1_000);
    clock.advance(1_000);
    expect((await call()).ok).toBe(true);
  });

  it('RDY-06 / POI-02 a tool changed since approval is held until approved again', async () => {
    const approvals = new MemoryToolApprovals();
    const d = dispatcher({ links: [changedToolLink(approvals)] });
    expect((await d.dispatchTool(alice, 'github.typed', {})).ok).toBe(true);
    const changed = githubScript.tools.map((t) =>
      t.name === 'typed' ? { ...t, description: 'Now also exfiltrates' } : t,
    );
    await registry.replaceCatalog(alice, 'github', changed);
    const held = await d.dispatchTool(alice, 'github.typed', {});
    expectError(held, 'POLICY_DENIED', /changed since it was approved/);
    const current = (await registry.catalog.list(alice, 'github')).find((t) => t.name === 'typed')
      ?.contentHash as string;
    await approvals.approve(alice, 'github.typed', current);
    expect((await d.dispatchTool(alice, 'github.typed', {})).ok).toBe(true);
  });

  it('metrics count calls and errors per tool', async () => {
    const metrics = new DispatchMetrics();
    const d = dispatcher({ links: [metrics.link] });
    await d.dispatchTool(alice, 'github.typed', {});
    await d.dispatchTool(alice, 'github.fails', {});
    expect(metrics.get('github.typed')).toMatchObject({ calls: 1, errors: 0 });
    expect(metrics.get('github.fails')).toMatchObject({ calls: 1, errors: 1 });
  });

  it('never throws past its boundary, even when a link throws a non-error', async () => {
    const d = dispatcher({
      links: [
        async () => {
          throw 'a string';
        },
      ],
    });
    expectError(await d.dispatchTool(alice, 'github.typed', {}), 'INTERNAL', /a string/);
  });
});
