import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { StaticTokenVerifier } from '../auth/token-verifier.js';
import { serveHttpApi } from './serve-api.js';
import { readStdioAllowlist } from './stdio-allowlist.js';
import { serverFixtures } from '@mcp-agent/test-support';

const home = mkdtempSync(join(tmpdir(), 'mcp-allowlist-'));
const ALICE = `alice-${randomBytes(12).toString('hex')}`;
const BOB = `bob-${randomBytes(12).toString('hex')}`;
const script = join(home, 'tools.json');
const allowlist = join(home, 'allow.json');
let stack: AgentStack;
let api: Awaited<ReturnType<typeof serveHttpApi>>;

beforeAll(async () => {
  writeFileSync(script, JSON.stringify({ tools: [{ name: 'remember', inputSchema: {} }] }));
  writeFileSync(
    allowlist,
    JSON.stringify({
      stdio: [
        {
          command: process.execPath,
          args: [serverFixtures.scripted, script],
          env: {
            MEMORY_FILE_PATH: { path: 'tenant' },
            LOG_LEVEL: { pattern: 'debug|info' },
            API_TOKEN: {},
          },
        },
      ],
    }),
  );
  stack = await openAgentStack({
    home,
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
    userServers: { stdio: readStdioAllowlist(allowlist), remote: 'public' },
    sandbox: false,
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
  rmSync(home, { recursive: true, force: true });
});

const addServer = (token: string, env: Record<string, string>) =>
  fetch(`${api.url}/v1/servers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      id: 'memory',
      transport: 'stdio',
      command: process.execPath,
      args: [serverFixtures.scripted, script],
      env,
    }),
  });

describe("the operator's stdio allowlist", () => {
  it('GW-05 reads value rules per name, and says what is wrong with a bad one', () => {
    expect(readStdioAllowlist(allowlist)[0]?.env).toEqual({
      MEMORY_FILE_PATH: { path: 'tenant' },
      LOG_LEVEL: { pattern: 'debug|info' },
      API_TOKEN: {},
    });
    const bad = join(home, 'bad-allow.json');
    writeFileSync(
      bad,
      JSON.stringify({
        stdio: [{ command: 'npx', env: { A: { pattern: '(' }, B: { path: 'anywhere' } } }],
      }),
    );
    expect(() => readStdioAllowlist(bad)).toThrow(
      /stdio\[0\]\.env\.A\.pattern: not a valid regular expression.*stdio\[0\]\.env\.B\.path/,
    );
  });

  it("GW-05 over HTTP, a tenant cannot point an allowed variable at another tenant's file or the key file", async () => {
    const alicesFolder = stack.registry.tenantFolder(createContext({ userId: 'alice' })).path;
    expect(
      (await addServer(ALICE, { MEMORY_FILE_PATH: 'memory.json', LOG_LEVEL: 'info' })).status,
    ).toBe(201);
    for (const env of [
      { MEMORY_FILE_PATH: join(alicesFolder, 'memory.json') },
      { MEMORY_FILE_PATH: join(home, 'secret.key') },
      { MEMORY_FILE_PATH: '../../mcp-agent.db' },
      { API_TOKEN: join(home, 'mcp-agent.db') },
      { LOG_LEVEL: 'trace' },
    ] as Record<string, string>[]) {
      const response = await addServer(BOB, env);
      expect(response.status, JSON.stringify(env)).toBe(403);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('POLICY_DENIED');
      expect(body.error.message).not.toContain(home);
    }
    // Bob's own file is his to name.
    expect((await addServer(BOB, { MEMORY_FILE_PATH: 'memory.json' })).status).toBe(201);
    const launched = await stack.registry.resolveServer(createContext({ userId: 'bob' }), 'memory');
    expect(launched).toMatchObject({
      env: {
        MEMORY_FILE_PATH: expect.stringMatching(/\/tenants\/bob-[0-9a-f]{16}\/memory\.json$/),
      },
    });
  });
});
