import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { createMemoryLogger } from '@mcp-agent/core/testing';
import { StaticTokenVerifier } from '../auth/token-verifier.js';
import { apiCall, readBody } from './api-test-helpers.js';
import { serveHttpApi } from './serve-api.js';
import { serverFixtures } from '@mcp-agent/test-support';

// The HTTP server as people use it: main.js's help and refusals, the mcpServers entry shape,
// no model configured, listing tasks, the access log, the MCP Registry, and server status.
const main = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'mcp-api-usable-'));
const ALICE = `alice-${randomBytes(12).toString('hex')}`;
const BOB = `bob-${randomBytes(12).toString('hex')}`;
const logs = createMemoryLogger();
let stack: AgentStack;
let api: Awaited<ReturnType<typeof serveHttpApi>>;
let registry: ChildProcess;
let savedKey: string | undefined;

beforeAll(async () => {
  // No model: neither a client given to the stack nor a key in the environment.
  savedKey = process.env.ANTHROPIC_API_KEY;
  delete process.env.ANTHROPIC_API_KEY;
  registry = spawn(process.execPath, [serverFixtures.mcpRegistry], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const registryUrl = await new Promise<string>((resolve, reject) => {
    registry.stdout?.on('data', (chunk: Buffer) => {
      const match = /listening (\S+)/.exec(chunk.toString());
      if (match) resolve(match[1] as string);
    });
    registry.once('exit', (code) => reject(new Error(`registry fixture exited ${code}`)));
  });
  stack = await openAgentStack({
    home,
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
    userServers: {
      stdio: [{ command: process.execPath, args: [serverFixtures.crashing] }],
      remote: 'public',
    },
    sandbox: false,
  });
  api = await serveHttpApi({
    stack,
    port: 0,
    verifier: new StaticTokenVerifier({ [ALICE]: 'alice', [BOB]: 'bob' }),
    logger: logs.logger,
    mcpRegistryUrl: registryUrl,
  });
});
afterAll(async () => {
  await api.close();
  await stack.close();
  registry.kill('SIGKILL');
  if (savedKey !== undefined) process.env.ANTHROPIC_API_KEY = savedKey;
});

const call = (token: string | undefined, method: string, path: string, body?: unknown) =>
  apiCall(api.url, token, method, path, body);

describe('main.js', () => {
  const start = (...args: string[]) =>
    spawnSync(process.execPath, [main, ...args], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, MCP_AGENT_HOME: home },
    });

  it('--help prints the flags and exits 0; a bad flag is one line, no stack trace', () => {
    const help = start('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^mcp-agent-server — the HTTP API and the MCP gateway/);
    expect(help.stdout).toContain('--tokens <file>');
    expect(help.stdout).toContain('--max-sessions <n>');
    const bad = start('--prot', '8080');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(
      /^mcp-agent-server: Unknown option '--prot'.*Run "mcp-agent-server --help"\.\n$/,
    );
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });

  it('a short token is refused with the rule; a missing token file is a sentence, not ENOENT', () => {
    const tokens = join(home, 'tokens.json');
    writeFileSync(tokens, JSON.stringify({ tokens: { 'short-one': 'carol' } }));
    const short = start('--tokens', tokens, '--port', '0');
    expect(short.status).toBe(2);
    expect(short.stderr).toBe(
      'mcp-agent-server: The token of user "carol" is 9 characters; gateway tokens must be at least 16 characters (for example 32 random bytes as hex: openssl rand -hex 32).\n',
    );
    expect(short.stderr).not.toContain('short-one');
    const missing = start('--tokens', join(home, 'nope.json'));
    expect(missing.stderr).toMatch(
      /Cannot read the token file .*nope\.json: there is no such file\./,
    );
    expect(missing.stderr).not.toMatch(/ENOENT/);
    writeFileSync(
      tokens,
      JSON.stringify({ tokens: { [randomBytes(16).toString('hex')]: 'carol' } }),
    );
    expect(start('--tokens', tokens, '--port', 'eighty').stderr).toMatch(
      /--port must be a whole number from 0 to 65535, not "eighty"/,
    );
  });
});

describe('the HTTP API as people use it', () => {
  it('POST /v1/servers takes an mcpServers entry and infers the transport like an import', async () => {
    const remote = await call(ALICE, 'POST', '/v1/servers', {
      id: 'linear',
      url: 'https://mcp.linear.app/mcp',
    });
    expect(remote.status).toBe(201);
    expect(await readBody(remote)).toMatchObject({ server: { id: 'linear', transport: 'auto' } });
    const http = await call(ALICE, 'POST', '/v1/servers', {
      id: 'notion',
      type: 'http',
      url: 'https://mcp.notion.com/mcp',
    });
    expect(await readBody(http)).toMatchObject({ server: { transport: 'streamable-http' } });
    const stdio = await call(ALICE, 'POST', '/v1/servers', {
      id: 'crash',
      command: process.execPath,
      args: [serverFixtures.crashing],
    });
    expect(stdio.status).toBe(201);
    const noKind = await readBody(await call(ALICE, 'POST', '/v1/servers', { id: 'x' }));
    expect(noKind.error.message).toMatch(/needs "command" \(stdio\) or "url" \(remote\)/);
    expect(noKind.error.message).not.toMatch(/discriminator/);
    const placeholder = await readBody(
      await call(ALICE, 'POST', '/v1/servers', {
        id: 'sneaky',
        url: 'https://x.example/mcp',
        headers: { Authorization: '${MCP_AGENT_SECRET_KEY}' },
      }),
    );
    expect(placeholder.error.message).toMatch(/placeholder .* is not expanded here/);
  });

  it('server status: the own final state and the reason a user can act on', async () => {
    const response = await call(ALICE, 'GET', '/v1/servers/crash/status');
    expect(await readBody(response)).toMatchObject({
      serverId: 'crash',
      status: 'failed',
      reason:
        "exited with code 1 before the MCP handshake: Error: Cannot find module './lib/missing-dependency.js'",
    });
    expect((await call(BOB, 'GET', '/v1/servers/crash/status')).status).toBe(404);
  });

  it('with no model, /ready says so and POST /v1/tasks fails at once with the configuration error', async () => {
    expect(await (await call(undefined, 'GET', '/ready')).json()).toEqual({
      ready: true,
      tasks: {
        available: false,
        reason: expect.stringMatching(
          /No model endpoint is configured\. Set MCP_AGENT_MODEL=anthropic:<model> with ANTHROPIC_API_KEY .* or MCP_AGENT_MODEL=openai:<model>/,
        ),
      },
    });
    const refused = await call(ALICE, 'POST', '/v1/tasks', { task: 'List my issues' });
    expect(refused.status).toBe(400);
    expect((await readBody(refused)).error).toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(/No model endpoint is configured/),
    });
    // Nothing was started, so there is nothing to list.
    expect(await readBody(await call(ALICE, 'GET', '/v1/tasks'))).toEqual({ tasks: [] });
  });

  it('GET /v1/registry/servers searches the MCP Registry for a UI', async () => {
    const body = await readBody(await call(ALICE, 'GET', '/v1/registry/servers?search=weather'));
    expect(body.servers).toEqual([
      expect.objectContaining({
        name: 'io.github.acme/weather',
        version: '1.2.0',
        status: 'active',
      }),
    ]);
    expect((await call(ALICE, 'GET', '/v1/registry/servers?limit=0')).status).toBe(400);
    expect((await call(undefined, 'GET', '/v1/registry/servers')).status).toBe(401);
  });

  it('one access line per request: method, path, status, duration, the user hashed; never a token', async () => {
    const before = logs.lines().length;
    await call(BOB, 'GET', '/v1/servers?cursor=secret-in-query');
    await call('wrong-token-wrong-token', 'GET', '/v1/tasks');
    await call(undefined, 'GET', '/health');
    // The gateway, served ahead of the API's app, writes its line when the response closes.
    await call('wrong-token-wrong-token', 'POST', '/mcp?state=secret-in-query', {});
    const lines = () =>
      logs
        .lines()
        .slice(before)
        .filter((line) => line.msg === 'request');
    for (let waited = 0; lines().length < 4 && waited < 2_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const access = lines();
    expect(access).toHaveLength(4);
    expect(access[0]).toMatchObject({
      level: 30,
      method: 'GET',
      path: '/v1/servers',
      status: 200,
      durationMs: expect.any(Number),
      user: expect.stringMatching(/^[0-9a-f]{12}$/),
    });
    expect(access[1]).toMatchObject({ path: '/v1/tasks', status: 401 });
    expect(access[1]).not.toHaveProperty('user');
    expect(access[2]).toMatchObject({ path: '/health', status: 200 });
    expect(access[3]).toMatchObject({
      method: 'POST',
      path: '/mcp',
      status: 401,
      durationMs: expect.any(Number),
    });
    const text = JSON.stringify(access);
    for (const secret of [BOB, 'wrong-token', 'secret-in-query', '"bob"'])
      expect(text).not.toContain(secret);
  });
});
