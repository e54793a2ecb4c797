import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createContext } from '@mcp-agent/core';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { createAnthropicModelClient } from '@mcp-agent/agent/anthropic';
import {
  startScriptedAnthropicServer,
  type ScriptedAnthropicServer,
} from '@mcp-agent/agent/testing';
import { SINGLE_USER_POLICY } from '@mcp-agent/registry';
import { StaticTokenVerifier } from '../auth/token-verifier.js';
import { createHttpApi } from './http-api.js';
import { serveHttpApi } from './serve-api.js';
import { readStdioAllowlist } from './stdio-allowlist.js';
import { serverFixtures } from '@mcp-agent/test-support';

const home = mkdtempSync(join(tmpdir(), 'mcp-api-'));
const ALICE = `alice-${randomBytes(12).toString('hex')}`;
const BOB = `bob-${randomBytes(12).toString('hex')}`;
let model: ScriptedAnthropicServer;
let stack: AgentStack;
let api: Awaited<ReturnType<typeof serveHttpApi>>;
const script = join(home, 'tools.json');

// Response bodies of the API: an error, or whatever the route returns.
type Body = { error: { code: string; message: string } } & Record<string, unknown>;
const read = async (response: Response): Promise<Body> => (await response.json()) as Body;

const call = (token: string | undefined, method: string, path: string, body?: unknown) =>
  fetch(`${api.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });

beforeAll(async () => {
  writeFileSync(
    script,
    JSON.stringify({
      tools: [
        {
          name: 'list_issues',
          description: 'List the issues of a repository',
          inputSchema: { type: 'object' },
        },
      ],
    }),
  );
  model = await startScriptedAnthropicServer();
  stack = await openAgentStack({
    home,
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
    // The one stdio server tenants may register here: the scripted fixture.
    userServers: {
      stdio: [{ command: process.execPath, args: [serverFixtures.scripted, script] }],
      remote: 'public',
    },
    sandbox: false,
    model: createAnthropicModelClient({
      apiKey: 'test-key',
      baseURL: model.url,
      model: 'scripted',
    }),
  });
  api = await serveHttpApi({
    stack,
    port: 0,
    verifier: new StaticTokenVerifier({ [ALICE]: 'alice', [BOB]: 'bob' }),
  });
});
afterAll(async () => {
  await api.close();
  await stack.close();
  await model.close();
});

describe('the HTTP API', () => {
  it('health and readiness answer without a token', async () => {
    expect(await (await call(undefined, 'GET', '/health')).json()).toEqual({ ok: true });
    expect(await (await call(undefined, 'GET', '/ready')).json()).toEqual({ ready: true });
  });

  it('refuses requests without a valid bearer token', async () => {
    for (const token of [undefined, 'wrong-token-wrong-token']) {
      const response = await call(token, 'GET', '/v1/servers');
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        error: { code: 'UNAUTHORIZED', message: expect.any(String) },
      });
    }
  });

  it('validates bodies: not JSON, unknown fields, invalid server configs', async () => {
    const notJson = await call(ALICE, 'POST', '/v1/tasks', '{nope');
    expect(notJson.status).toBe(400);
    expect((await read(notJson)).error.code).toBe('INVALID_ARGUMENTS');
    const unknownField = await call(ALICE, 'POST', '/v1/tasks', { task: 'x', priority: 'high' });
    expect(unknownField.status).toBe(400);
    expect((await read(unknownField)).error.message).toMatch(/priority/);
    const badServer = await call(ALICE, 'POST', '/v1/servers', {
      id: 'Bad.Id',
      transport: 'stdio',
      command: '',
    });
    expect(badServer.status).toBe(400);
    expect((await read(badServer)).error).toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(/id: .*command: /),
    });
  });

  it("manages a user's servers: add, list, status, remove; other users see nothing", async () => {
    const added = await call(ALICE, 'POST', '/v1/servers', {
      id: 'github',
      transport: 'stdio',
      command: process.execPath,
      args: [serverFixtures.scripted, script],
    });
    expect(added.status).toBe(201);
    const listed = (await read(await call(ALICE, 'GET', '/v1/servers'))).servers as {
      id: string;
    }[];
    expect(listed.map((s) => s.id)).toEqual(['github']);
    expect((await read(await call(BOB, 'GET', '/v1/servers'))).servers).toEqual([]);
    const status = await (await call(ALICE, 'GET', '/v1/servers/github/status')).json();
    expect(status).toMatchObject({ serverId: 'github', status: 'ready', toolCount: 1 });
    const hidden = await call(BOB, 'GET', '/v1/servers/github/status');
    expect(hidden.status).toBe(404);
    expect((await read(hidden)).error.code).toBe('SERVER_NOT_FOUND');
    expect((await call(BOB, 'DELETE', '/v1/servers/github')).status).toBe(404);
  });

  it('STD-08 a tenant cannot run a command of its choosing on the host, nor reach private URLs', async () => {
    for (const server of [
      { id: 'pwn', transport: 'stdio', command: 'sh', args: ['-c', 'touch /tmp/pwned'] },
      { id: 'pwn', transport: 'stdio', command: process.execPath, args: ['-e', 'process.exit()'] },
      {
        id: 'pwn',
        transport: 'stdio',
        command: process.execPath,
        args: [serverFixtures.scripted, script],
        env: { NODE_OPTIONS: '--import=data:text/javascript,process.exit()' },
      },
      { id: 'pwn', transport: 'streamable-http', url: 'http://169.254.169.254/latest/' },
      { id: 'pwn', transport: 'streamable-http', url: 'https://127.0.0.1:6379/' },
    ]) {
      const refused = await call(ALICE, 'POST', '/v1/servers', server);
      expect(refused.status).toBe(403);
      expect((await read(refused)).error).toMatchObject({
        code: 'POLICY_DENIED',
        message: expect.stringMatching(/Server "pwn" is refused: .+/),
      });
    }
    const listed = (await read(await call(ALICE, 'GET', '/v1/servers'))).servers as {
      id: string;
    }[];
    expect(listed.map((s) => s.id)).not.toContain('pwn');
  });

  it('refuses to serve many users from a registry that lets anyone run any command', () => {
    const permissive = { registry: { userServerPolicy: SINGLE_USER_POLICY } } as AgentStack;
    const verifier = new StaticTokenVerifier({});
    expect(() => createHttpApi({ stack: permissive, verifier })).toThrow(
      /lets any user run any command on this host.*MULTI_TENANT_POLICY/,
    );
    expect(() =>
      createHttpApi({ stack: permissive, verifier, trustTenantCommands: true }),
    ).not.toThrow();
  });

  it("reads the operator's stdio allowlist, and says what is wrong with a bad one", () => {
    const good = join(home, 'allow.json');
    writeFileSync(
      good,
      JSON.stringify({ stdio: [{ command: 'npx', args: ['-y', 'pkg'], env: ['TOKEN'] }] }),
    );
    expect(readStdioAllowlist(good)).toEqual([
      { command: 'npx', args: ['-y', 'pkg'], env: ['TOKEN'] },
    ]);
    const bad = join(home, 'bad-allow.json');
    writeFileSync(bad, JSON.stringify({ stdio: [{ cmd: 'npx' }] }));
    expect(() => readStdioAllowlist(bad)).toThrow(
      /Invalid stdio allowlist .*stdio\[0\]\.command: .*Unrecognized key: "cmd"/,
    );
    expect(() => readStdioAllowlist(join(home, 'missing.json'))).toThrow(/could not be read/);
  });

  it('starts a task, reports it, and streams its steps as server-sent events', async () => {
    model.push(
      { content: [{ type: 'tool_use', name: 'search_tools', input: { query: 'list issues' } }] },
      { content: [{ type: 'text', text: 'There is a tool for that.' }] },
    );
    const started = await call(ALICE, 'POST', '/v1/tasks', { task: 'Which tool lists issues?' });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: string };
    const events = await (await call(ALICE, 'GET', `/v1/tasks/${id}/events`)).text();
    expect(events).toMatch(/event: step-start/);
    expect(events).toMatch(/event: tool-call/);
    expect(events).toMatch(/event: done/);
    const task = await (await call(ALICE, 'GET', `/v1/tasks/${id}`)).json();
    expect(task).toMatchObject({
      id,
      status: 'completed',
      result: { answer: 'There is a tool for that.' },
    });
    const other = await call(BOB, 'GET', `/v1/tasks/${id}`);
    expect(other.status).toBe(404);
    // A task is not a server: its own code, not SERVER_NOT_FOUND.
    expect((await read(other)).error).toEqual({ code: 'NOT_FOUND', message: 'No such task.' });
    expect((await call(BOB, 'GET', `/v1/tasks/${id}/events`)).status).toBe(404);
  });

  it('serves the gateway at /mcp with the same tokens', async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${ALICE}` } },
      }),
    );
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('search_tools');
    await client.close();
    expect((await call(undefined, 'POST', '/mcp', {})).status).toBe(401);
  });

  // Usage and quotas (issue 17).
  it("GET /v1/usage shows the user's totals by day, by server and by model; task context is accepted", async () => {
    const use = (name: string, input: unknown) => ({
      content: [{ type: 'tool_use' as const, name, input }],
    });
    model.push(
      use('describe_tools', { tool_ids: ['github.list_issues'] }),
      use('call_tool', { tool_id: 'github.list_issues', arguments: {} }),
      { content: [{ type: 'text', text: 'Listed.' }] },
    );
    const started = await call(ALICE, 'POST', '/v1/tasks', {
      task: 'List the issues',
      context: { cwd: '/srv/app', selectionText: 'issue #7' },
    });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: string };
    await (await call(ALICE, 'GET', `/v1/tasks/${id}/events`)).text();
    expect(JSON.stringify(model.requests.at(-3)?.body.messages[0])).toContain('/srv/app');
    const response = await call(ALICE, 'GET', '/v1/usage?days=7');
    expect(response.status).toBe(200);
    const { usage, quotas } = (await response.json()) as {
      usage: {
        days: { day: string; toolCalls: number; requests: number }[];
        servers: { server: string; calls: number; errors: number }[];
        models: { model: string; estimatedCostUsd: number | null }[];
        unpricedModels: string[];
      };
      quotas: { limits: object };
    };
    expect(usage.days).toEqual([
      expect.objectContaining({ day: new Date().toISOString().slice(0, 10), toolCalls: 1 }),
    ]);
    expect(usage.servers).toEqual([
      expect.objectContaining({ server: 'github', calls: 1, errors: 0 }),
    ]);
    expect(usage.models).toEqual([
      expect.objectContaining({ model: 'scripted', estimatedCostUsd: null }),
    ]);
    expect(usage.unpricedModels).toEqual(['scripted']);
    expect(quotas.limits).toEqual({});
    // Bob's usage is his own: none.
    const bob = (await (await call(BOB, 'GET', '/v1/usage')).json()) as typeof usage & {
      usage: { days: unknown[] };
    };
    expect(bob.usage.days).toEqual([]);
    expect((await call(ALICE, 'GET', '/v1/usage?days=0')).status).toBe(400);
    const badContext = await call(ALICE, 'POST', '/v1/tasks', {
      task: 'x',
      context: { nested: { a: 1 } },
    });
    expect(badContext.status).toBe(400);
    expect((await read(badContext)).error.message).toMatch(/context\.nested/);
  });

  it('TEN-11 a user past a quota: the task ends quota_exceeded, the next is refused with 429 and Retry-After', async () => {
    const alice = createContext({ userId: 'alice' });
    await stack.registry.setQuotaLimits(alice, { maxCallsPerHour: 1 });
    try {
      const use = (name: string, input: unknown) => ({
        content: [{ type: 'tool_use' as const, name, input }],
      });
      model.push(
        use('describe_tools', { tool_ids: ['github.list_issues'] }),
        use('call_tool', { tool_id: 'github.list_issues', arguments: {} }),
        use('call_tool', { tool_id: 'github.list_issues', arguments: {} }),
      );
      const started = await call(ALICE, 'POST', '/v1/tasks', { task: 'List twice' });
      const { id } = (await started.json()) as { id: string };
      await (await call(ALICE, 'GET', `/v1/tasks/${id}/events`)).text();
      const task = (await (await call(ALICE, 'GET', `/v1/tasks/${id}`)).json()) as {
        status: string;
        result: { error: { code: string; message: string } };
      };
      expect(task.status).toBe('quota_exceeded');
      expect(task.result.error).toMatchObject({
        code: 'QUOTA_EXCEEDED',
        message: expect.stringMatching(/maxCallsPerHour is 1 \(used 1 this hour\)/),
      });
      const refused = await call(ALICE, 'POST', '/v1/tasks', { task: 'Once more' });
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3_600);
      const body = await read(refused);
      expect(body.error).toEqual({
        code: 'QUOTA_EXCEEDED',
        message: expect.stringMatching(
          /^Quota reached: maxCallsPerHour is 1 \(used 1 this hour\)\. It resets at \S+Z \(in \d+ min\)\.$/,
        ),
      });
      console.info(
        `POST /v1/tasks → ${refused.status} retry-after: ${retryAfter}\n${JSON.stringify(body)}`,
      );
      const usage = (await (await call(ALICE, 'GET', '/v1/usage')).json()) as {
        quotas: { limits: object; callsThisHour: number };
      };
      expect(usage.quotas).toMatchObject({ limits: { maxCallsPerHour: 1 }, callsThisHour: 1 });
    } finally {
      await stack.registry.setQuotaLimits(alice, { maxCallsPerHour: null });
    }
  });

  it('unknown routes are JSON errors', async () => {
    const response = await call(ALICE, 'GET', '/v1/nothing-here');
    expect(response.status).toBe(404);
    expect((await read(response)).error.code).toBe('NOT_FOUND');
  });
});
