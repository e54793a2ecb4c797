// The end-to-end stack the agent tests share: real SDK over HTTP to a scripted model, real MCP
// servers through the pool, real isolated-vm.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { createContext, type Logger } from '@mcp-agent/core';
import {
  Dispatcher,
  loggingLink,
  quotaLink,
  usageLink,
  type DispatchLink,
} from '@mcp-agent/actions';
import { IsolatedVmSandbox } from '@mcp-agent/execution';
import { Knowledge } from '@mcp-agent/knowledge';
import { ConnectionPool, type Registry } from '@mcp-agent/registry';
import { createTestRegistry } from '@mcp-agent/registry/testing';
import { Agent } from './agent.js';
import type { ModelClient } from './model/model-client.js';
import type { PriceTable } from './model/model-prices.js';
import {
  startModelEndpoint,
  type Adapter,
  type ModelEndpoint,
} from './testing/scripted-model-endpoints.js';

export { ADAPTERS, say, use, type Adapter } from './testing/scripted-model-endpoints.js';
import { issueTrackerScript, serverFixtures } from '@mcp-agent/test-support';

export const dir = mkdtempSync(join(tmpdir(), 'mcp-agent-e2e-'));
// Made once per test file (each file loads this module afresh), and removed after its tests.
afterAll(() => rmSync(dir, { recursive: true, force: true }));
export const USER = 'alice';
export const META = [
  'search_tools',
  'describe_tools',
  'call_tool',
  'run_code',
  'read_result',
  'read_resource',
];

/** The current test's stack: registry, pool, scripted model endpoint and agent. */
export const e2e = {} as {
  sandbox: IsolatedVmSandbox;
  registry: Registry;
  pool: ConnectionPool;
  model: ModelEndpoint;
  agent: Agent;
};

export async function addScripted(id: string, script: object, userId = USER) {
  const file = join(dir, `${id}-${Math.random()}.json`);
  writeFileSync(file, JSON.stringify(script));
  await e2e.registry.addServer(createContext({ userId }), {
    id,
    transport: 'stdio',
    command: process.execPath,
    args: [serverFixtures.scripted, file],
  });
}

export function makeAgent(
  options: {
    serverAgents?: boolean;
    logger?: Logger;
    prices?: PriceTable;
    links?: DispatchLink[];
    model?: ModelClient;
  } = {},
): Agent {
  const { links, ...agentOptions } = options;
  const knowledge = new Knowledge({ registry: e2e.registry });
  // The links openAgentStack always has: quotas and usage.
  const dispatcher = new Dispatcher({
    registry: e2e.registry,
    pool: e2e.pool,
    links: [
      ...(links ?? []),
      ...(options.logger === undefined ? [] : [loggingLink]),
      quotaLink(e2e.registry),
      usageLink(e2e.registry),
    ],
  });
  return new Agent({
    registry: e2e.registry,
    pool: e2e.pool,
    knowledge,
    dispatcher,
    sandbox: e2e.sandbox,
    model: e2e.model.client(),
    readyTimeoutMs: 10_000,
    ...agentOptions,
  });
}

/**
 * Opens the stack for the calling describe block: one sandbox, and before each test a fresh
 * e2e.registry, e2e.pool, scripted model endpoint of `adapter` and agent with the "github"
 * issues server.
 */
export function useE2eStack(adapter: Adapter): void {
  beforeAll(() => {
    e2e.sandbox = new IsolatedVmSandbox({ workers: 1 });
  });
  afterAll(async () => {
    await e2e.sandbox.dispose();
  });
  beforeEach(async () => {
    e2e.registry = await createTestRegistry();
    e2e.pool = new ConnectionPool(e2e.registry, { pingIntervalMs: 0, attempts: 1 });
    e2e.model = await startModelEndpoint(adapter);
    await addScripted('github', issueTrackerScript);
    e2e.agent = makeAgent();
  });
  afterEach(async () => {
    await e2e.pool.close();
    await e2e.registry.close();
    await e2e.model.close();
  });
}
