// What the multi-process tests (scale-out.test.ts, session-handoff.test.ts) share: the cluster
// they run on, and what they do to it: start tasks, open gateway sessions, call meta-tools, and
// wait for another process to catch up.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  startScriptedAnthropicServer,
  type ScriptedAnthropicServer,
  type ScriptedMessage,
  type ScriptStep,
} from '@mcp-agent/agent/testing';
import { alive, descendants, serverFixtures } from '@mcp-agent/test-support';
import { apiCall } from './api/api-test-helpers.js';
import { startCluster, type Cluster, type ServerProcess } from './testing/server-cluster.js';

// Several server processes on one PostgreSQL: what a deployment behind a load balancer runs.
const databaseUrl = process.env.MCP_AGENT_TEST_DATABASE_URL ?? '';

/**
 * `describe` on PostgreSQL (MCP_AGENT_TEST_DATABASE_URL); without it, one skipped test saying how
 * to run them. CI starts PostgreSQL (.ci/run): there, a run without it fails instead of skipping.
 */
export function describeOnPostgres(title: string, tests: () => void): void {
  if (databaseUrl === '' && process.env.CI)
    throw new Error(
      'CI must run the multi-process scale-out tests on PostgreSQL: set MCP_AGENT_TEST_DATABASE_URL (.ci/run starts one).',
    );
  if (databaseUrl === '')
    it.skip('PostgreSQL half skipped: set MCP_AGENT_TEST_DATABASE_URL=postgres://… to run the multi-process tests', () =>
      undefined);
  describe.runIf(databaseUrl !== '')(title, tests);
}

/** A bearer token for each of these users, new every run. */
export const tokensOf = <U extends string>(...users: U[]): Record<U, string> =>
  Object.fromEntries(
    users.map((user) => [user, `${user}-${randomBytes(12).toString('hex')}`]),
  ) as Record<U, string>;

/** The task lease of the cluster's processes. */
export const LEASE_MS = 2_000;

/** What {@link useCluster} started; read in a test (or a hook after the cluster's). */
export interface TestCluster {
  readonly model: ScriptedAnthropicServer;
  readonly cluster: Cluster;
  readonly a: ServerProcess;
  readonly b: ServerProcess;
}

/**
 * Starts processes A and B on a schema of their own before the suite's tests, and stops them
 * (with any the tests started) after: users signed in by `tokens`, the scripted MCP server (one
 * tool, `list_issues`) tenants may add, a scripted model, a task lease of {@link LEASE_MS}, at
 * most 2 running tasks per user, and tool calls at 1 a second after a burst of 3, counted over
 * every process. Call it inside {@link describeOnPostgres}.
 */
export function useCluster(tokens: Readonly<Record<string, string>>): TestCluster {
  let model: ScriptedAnthropicServer | undefined;
  let cluster: Cluster | undefined;
  let processes: [ServerProcess, ServerProcess] | undefined;
  beforeAll(async () => {
    model = await startScriptedAnthropicServer();
    cluster = await startCluster({
      fixtures: serverFixtures,
      databaseUrl,
      tokens: Object.fromEntries(Object.entries(tokens).map(([user, token]) => [token, user])),
      script: {
        tools: [
          {
            name: 'list_issues',
            description: 'List the issues of a repository',
            inputSchema: { type: 'object' },
          },
        ],
      },
      flags: [
        '--task-lease-ms',
        String(LEASE_MS),
        '--max-running-tasks',
        '2',
        '--tool-calls-per-second',
        '1',
        '--tool-call-burst',
        '3',
      ],
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: model.url },
    });
    processes = await Promise.all([cluster.start('A'), cluster.start('B')]);
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
    await model?.close();
  }, 60_000);
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the cluster is used before beforeAll started it');
    return value;
  };
  return {
    get model() {
      return started(model);
    },
    get cluster() {
      return started(cluster);
    },
    get a() {
      return started(processes)[0];
    },
    get b() {
      return started(processes)[1];
    },
  };
}

export const say = (text: string, delayMs?: number): ScriptedMessage => ({
  content: [{ type: 'text', text }],
  ...(delayMs === undefined ? {} : { delayMs }),
});
export const search: ScriptStep = {
  content: [{ type: 'tool_use', name: 'search_tools', input: { query: 'list issues' } }],
  delayMs: 300,
};

export async function waitFor<T>(
  read: () => Promise<T | undefined>,
  timeoutMs: number,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function startTask(
  server: ServerProcess,
  token: string,
  task: string,
): Promise<string> {
  const started = await apiCall(server.url, token, 'POST', '/v1/tasks', { task });
  expect(started.status).toBe(202);
  return ((await started.json()) as { id: string }).id;
}

export async function gateway(server: ServerProcess | string, token: string): Promise<Client> {
  const client = new Client({ name: 'scale-test', version: '1' });
  const base = typeof server === 'string' ? server : server.url;
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

export async function metaCall(client: Client, name: string, args: object) {
  const result = await client.callTool({ name, arguments: args as Record<string, unknown> });
  const text = (result.content as { text: string }[])[0]?.text ?? 'null';
  return { ok: result.isError !== true, value: JSON.parse(text) as Record<string, unknown> };
}

// The scripted MCP servers a server process runs (not its sandbox workers).
export const scriptedChildren = (server: ServerProcess) =>
  descendants(server.pid).filter((pid) => {
    try {
      return alive(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('scripted-server');
    } catch {
      return false;
    }
  });
