import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { createAnthropicModelClient } from '@mcp-agent/agent/anthropic';
import {
  startScriptedAnthropicServer,
  type ScriptedAnthropicServer,
  type ScriptStep,
} from '@mcp-agent/agent/testing';
import { StaticTokenVerifier } from '../auth/token-verifier.js';
import { apiCall, readBody, until } from './api-test-helpers.js';
import { serveHttpApi } from './serve-api.js';

// The operator's limits of this deployment, far below the defaults so the tests reach them.
const CEILINGS = { maxSteps: 3, maxToolCalls: 5, maxInputTokens: 100_000, maxWallTimeMs: 60_000 };
const ALICE = `alice-${randomBytes(12).toString('hex')}`;
const BOB = `bob-${randomBytes(12).toString('hex')}`;
let model: ScriptedAnthropicServer;
let stack: AgentStack;
let api: Awaited<ReturnType<typeof serveHttpApi>>;

const call = (token: string | undefined, method: string, path: string, body?: unknown) =>
  apiCall(api.url, token, method, path, body);
const search: ScriptStep = {
  content: [{ type: 'tool_use', name: 'search_tools', input: { query: 'x' } }],
};
const say = (text: string, delayMs?: number): ScriptStep => ({
  content: [{ type: 'text', text }],
  ...(delayMs === undefined ? {} : { delayMs }),
});

async function start(token: string, body: object): Promise<string> {
  const started = await call(token, 'POST', '/v1/tasks', body);
  expect(started.status).toBe(202);
  return ((await started.json()) as { id: string }).id;
}

// Waits for the task's end through its event stream, then reads it.
async function finished(token: string, id: string): Promise<Record<string, unknown>> {
  await (await call(token, 'GET', `/v1/tasks/${id}/events`)).text();
  return readBody(await call(token, 'GET', `/v1/tasks/${id}`));
}

beforeAll(async () => {
  model = await startScriptedAnthropicServer();
  stack = await openAgentStack({
    home: mkdtempSync(join(tmpdir(), 'mcp-api-limits-')),
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
    userServers: { stdio: 'none', remote: 'public' },
    sandbox: false,
    model: createAnthropicModelClient({ apiKey: 'test-key', baseURL: model.url, model: 'x' }),
    limits: { budgetCeilings: CEILINGS, maxRunningTasksPerUser: 2 },
  });
  api = await serveHttpApi({
    stack,
    port: 0,
    verifier: new StaticTokenVerifier({ [ALICE]: 'alice', [BOB]: 'bob' }),
  });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await api.close();
  await stack.close();
  await model.close();
});

describe('the operator limits on tasks', () => {
  it('API-01 a budget past the ceilings is clamped, the result says which, and the spend stops at the ceiling', async () => {
    const before = model.requests.length;
    model.push(search, search, search);
    const id = await start(ALICE, {
      task: 'Search for ever.',
      budget: { maxSteps: 1e6, maxToolCalls: 1e6, maxWallTimeMs: 864e5, maxInputTokens: 1e12 },
    });
    const task = await finished(ALICE, id);
    expect(task).toMatchObject({
      status: 'budget_exceeded',
      result: {
        error: { code: 'BUDGET_EXCEEDED', details: { limit: 'maxSteps', max: 3 } },
        budget: {
          limits: { ...CEILINGS, maxOutputTokens: 16_000 },
          clamped: [
            { limit: 'maxSteps', requested: 1e6, applied: 3 },
            { limit: 'maxToolCalls', requested: 1e6, applied: 5 },
            { limit: 'maxInputTokens', requested: 1e12, applied: 100_000 },
            { limit: 'maxWallTimeMs', requested: 864e5, applied: 60_000 },
          ],
        },
      },
    });
    // Three model requests on the operator's key, not a million.
    expect(model.requests.length - before).toBe(3);
    expect(model.remaining()).toBe(0);
  });

  it("API-01 the gateway's execute_task is held to the same ceilings", async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'test-key'); // the gateway offers execute_task with a model
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${ALICE}` } },
      }),
    );
    model.push(say('Nothing to do.'));
    const result = await client.callTool({ name: 'execute_task', arguments: { task: 'Hello.' } });
    const text = (result.content as { text: string }[])[0]?.text ?? '';
    expect(JSON.parse(text)).toMatchObject({
      status: 'completed',
      budget: {
        limits: { ...CEILINGS, maxOutputTokens: 16_000 },
        clamped: expect.arrayContaining([{ limit: 'maxSteps', requested: 20, applied: 3 }]),
      },
    });
    await client.close();
  });

  it('API-02 DELETE /v1/tasks/:id and POST …/cancel stop a running task within 1 s, as cancelled', async () => {
    for (const [method, suffix] of [
      ['DELETE', ''],
      ['POST', '/cancel'],
    ] as const) {
      const seen = model.requests.length;
      model.push(say('Too late.', 60_000));
      const id = await start(ALICE, { task: 'Wait on the model.' });
      await until(() => model.requests.length > seen); // in its model call now
      expect((await call(BOB, method, `/v1/tasks/${id}${suffix}`)).status).toBe(404);
      const started = performance.now();
      const cancelled = await call(ALICE, method, `/v1/tasks/${id}${suffix}`);
      const elapsed = performance.now() - started;
      expect(cancelled.status).toBe(200);
      expect(await cancelled.json()).toMatchObject({
        id,
        status: 'cancelled',
        result: { status: 'cancelled', error: { code: 'CANCELLED' } },
      });
      expect(elapsed).toBeLessThan(1_000);
    }
  });

  it('API-02 past the running-task limit a user gets 429 with Retry-After; other users and freed slots are unaffected', async () => {
    const seen = model.requests.length;
    model.push(say('One.', 60_000), say('Two.', 60_000));
    const first = await start(ALICE, { task: 'One.' });
    const second = await start(ALICE, { task: 'Two.' });
    await until(() => model.requests.length >= seen + 2);
    const refused = await call(ALICE, 'POST', '/v1/tasks', { task: 'One too many.' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: expect.stringMatching(/already runs 2 tasks, the most allowed.*cancel one/),
      },
    });
    model.push(say('Bob is served.'));
    expect(await finished(BOB, await start(BOB, { task: 'Mine.' }))).toMatchObject({
      status: 'completed',
    });
    expect((await call(ALICE, 'DELETE', `/v1/tasks/${first}`)).status).toBe(200);
    model.push(say('There is room again.'));
    expect(await finished(ALICE, await start(ALICE, { task: 'Three.' }))).toMatchObject({
      status: 'completed',
      result: { answer: 'There is room again.' },
    });
    expect((await call(ALICE, 'DELETE', `/v1/tasks/${second}`)).status).toBe(200);
  });
});
