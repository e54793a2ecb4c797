import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PolicyDeniedError, type ActionResponse } from '@mcp-agent/core';
import { ConnectionPool } from '@mcp-agent/registry';
import {
  addNpmServer,
  alice,
  bob,
  clock,
  dispatcher,
  expectError,
  stack,
  useDispatchStack,
} from './dispatch-test-helpers.js';
import type { Dispatcher } from './dispatcher.js';
import { policyLink } from './links/policy-link.js';
import { quotaLink } from './links/quota-link.js';
import { rateLimitLink } from './links/rate-limit-link.js';
import { usageLink } from './links/usage-link.js';
import { POOL_METHOD_OF } from './server-operations.js';
import { SERVER_OPERATIONS, type DispatchLink, type ServerOperation } from './tool-call.js';

useDispatchStack();

const DOC = 'demo://resource/static/document/architecture.md';

// How each operation is asked of the dispatcher. Typed by the operation: a new one does not
// compile until it has an entry here, and the tests below then check it passes the chain.
const ENTRY: Readonly<Record<ServerOperation, (d: Dispatcher) => Promise<ActionResponse>>> = {
  'tools/call': (d) => d.dispatchTool(alice, 'everything.echo', { message: 'hi' }),
  'resources/list': (d) => d.listResources(alice, 'everything'),
  'resources/read': (d) => d.readResource(alice, 'everything', DOC),
};

// The pool's methods that reach no server for a user's request: lifecycle, readiness, status.
const NOT_USER_OPERATIONS = [
  'constructor',
  'connection',
  'ready',
  'warmUp',
  'report',
  'waitForReady',
  'status',
  'statusOfAll',
  'size',
  'close',
  'evictIdle',
];

function poolMethods(): string[] {
  const names = new Set<string>();
  for (let proto = ConnectionPool.prototype; proto !== Object.prototype;) {
    for (const name of Object.getOwnPropertyNames(proto)) names.add(name);
    proto = Object.getPrototypeOf(proto) as typeof ConnectionPool.prototype;
  }
  return [...names].filter((name) => !NOT_INHERITED_NOISE.has(name)).sort();
}
// EventEmitter's own methods (the pool is one): not operations on a server.
const NOT_INHERITED_NOISE = new Set(
  Object.getOwnPropertyNames(Object.getPrototypeOf(ConnectionPool.prototype) as object),
);

describe('one gate for every operation on a user server', () => {
  it('RES-02 every method of the pool is either a user operation routed through the chain or named as no operation, so a new one fails here until it is routed', () => {
    const routed = Object.values(POOL_METHOD_OF);
    const unclassified = poolMethods().filter(
      (name) => !routed.includes(name as never) && !NOT_USER_OPERATIONS.includes(name),
    );
    expect(unclassified).toEqual([]);
    expect(Object.keys(POOL_METHOD_OF).sort()).toEqual([...SERVER_OPERATIONS].sort());
    expect(Object.keys(ENTRY).sort()).toEqual([...SERVER_OPERATIONS].sort());
  });

  it('RES-02 a link that refuses everything stops every operation before the pool; a link that lets it through sees each, and the pool is reached once', async () => {
    await addNpmServer(alice, 'everything', 'server-everything');
    const reached: string[] = [];
    for (const method of Object.values(POOL_METHOD_OF)) {
      const original = stack.pool[method].bind(stack.pool) as (...args: unknown[]) => unknown;
      (stack.pool as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        reached.push(method);
        return original(...args);
      };
    }
    const deny: DispatchLink = async (_ctx, call) => {
      throw new PolicyDeniedError(`refused ${call.toolId}`);
    };
    const seen: string[] = [];
    const record: DispatchLink = async (_ctx, call, next) => {
      seen.push(`${call.operation ?? 'tools/call'} ${call.toolId}`);
      return next(call);
    };
    for (const operation of SERVER_OPERATIONS) {
      reached.length = 0;
      expectError(await ENTRY[operation](dispatcher({ links: [deny] })), 'POLICY_DENIED');
      expect({ operation, reached }).toEqual({ operation, reached: [] });
      const response = await ENTRY[operation](dispatcher({ links: [record] }));
      expect(response.ok, JSON.stringify(response)).toBe(true);
      expect({ operation, reached }).toEqual({ operation, reached: [POOL_METHOD_OF[operation]] });
    }
    expect(seen).toEqual([
      'tools/call everything.echo',
      'resources/list everything.resources/list',
      'resources/read everything.resources/read',
    ]);
  });

  it('RES-02 no code outside the chain calls the pool user operations', () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const allowed = new Set([
      // The chain's last step.
      'packages/actions/src/server-operations.ts',
      // The conformance runner drives the pool itself, for the MCP conformance suite.
      'packages/registry/src/bin/conformance-client.ts',
      // The sandbox's tools are the dispatcher's, handed in as a callback.
      'packages/execution/src/testing/fake-sandbox.ts',
    ]);
    const offenders: string[] = [];
    for (const dir of ['packages', 'apps'])
      for (const file of sources(join(root, dir))) {
        const path = relative(root, file);
        if (allowed.has(path) || path.startsWith('packages/registry/src/connections/pool/'))
          continue;
        const text = readFileSync(file, 'utf8');
        // A call of one of these methods on anything but the dispatcher.
        for (const call of text.matchAll(/([\w$]+)\??\.(callTool|listResources|readResource)\(/g))
          if (!/dispatcher$/i.test(call[1] as string)) offenders.push(`${path}: ${call[0]}`);
      }
    expect(offenders).toEqual([]);
  });

  it('RES-01 resource lists and reads pass policy, rate limits, quotas and usage like tool calls, per tenant', async () => {
    await addNpmServer(alice, 'everything', 'server-everything');
    await addNpmServer(bob, 'everything', 'server-everything');
    const denied = dispatcher({ links: [policyLink({ tools: { 'everything.*': 'deny' } })] });
    expectError(await denied.listResources(alice, 'everything'), 'POLICY_DENIED');
    expectError(await denied.readResource(alice, 'everything', DOC), 'POLICY_DENIED');
    // A rule for reads alone leaves tool calls and lists alone.
    const readsDenied = dispatcher({
      links: [policyLink({ tools: { 'everything.resources/read': 'deny' } })],
    });
    expectError(await readsDenied.readResource(alice, 'everything', DOC), 'POLICY_DENIED');
    expect((await readsDenied.listResources(alice, 'everything')).ok).toBe(true);

    const limits = { servers: { everything: { ratePerSecond: 1, burst: 3 } } };
    const d = dispatcher({
      links: [
        rateLimitLink(limits, stack.registry.rateLimitCounter),
        quotaLink(stack.registry),
        usageLink(stack.registry),
      ],
    });
    // A tight loop of reads: the burst passes, the next is refused with a retry-after.
    expect((await d.readResource(alice, 'everything', DOC)).ok).toBe(true);
    expect((await d.listResources(alice, 'everything')).ok).toBe(true);
    expect((await d.readResource(alice, 'everything', DOC)).ok).toBe(true);
    const limited = await d.readResource(alice, 'everything', DOC);
    expectError(limited, 'RATE_LIMITED');
    expect(!limited.ok && limited.error.details.retryAfterMs).toBe(1_000);
    // Bob's allowance is his own.
    expect((await d.readResource(bob, 'everything', DOC)).ok).toBe(true);
    // Counted: three operations of alice's reached the server, one of bob's.
    const usage = async (ctx: typeof alice) =>
      (await stack.registry.taskUsage(ctx, ctx.requestId)).servers;
    expect(await usage(alice)).toEqual([
      { server: 'everything', calls: 3, errors: 0, durationMs: expect.any(Number) },
    ]);
    expect(await usage(bob)).toEqual([
      { server: 'everything', calls: 1, errors: 0, durationMs: expect.any(Number) },
    ]);
    // The hourly quota counts them too, and refuses the one past it.
    clock.advance(10_000);
    await stack.registry.setQuotaLimits(alice, { maxCallsPerHour: 2 });
    expect((await d.readResource(alice, 'everything', DOC)).ok).toBe(true);
    expect((await d.listResources(alice, 'everything')).ok).toBe(true);
    expectError(await d.readResource(alice, 'everything', DOC), 'QUOTA_EXCEEDED');
  });
});

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (['node_modules', 'dist', 'build', '.toolchain'].includes(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (
      name.endsWith('.ts') &&
      !name.endsWith('.test.ts') &&
      !name.includes('test-helpers') &&
      !path.includes(`${join('src', 'bench')}`)
    )
      yield path;
  }
}
