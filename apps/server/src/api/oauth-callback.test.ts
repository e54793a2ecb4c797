import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { StaticTokenVerifier } from '../auth/token-verifier.js';
import { apiCall, MCP_INITIALIZE } from './api-test-helpers.js';
import { serveHttpApi } from './serve-api.js';
import { serverFixtures } from '@mcp-agent/test-support';

const ALICE = `alice-${randomBytes(12).toString('hex')}`;
const BOB = `bob-${randomBytes(12).toString('hex')}`;
const verifier = new StaticTokenVerifier({ [ALICE]: 'alice', [BOB]: 'bob' });
let fixture: ChildProcess;
let authServer: string;
let stack: AgentStack;
const served: Awaited<ReturnType<typeof serveHttpApi>>[] = [];
let api: (typeof served)[number];

const serve = async (options: { publicUrl?: string; trustProxy?: boolean } = {}) => {
  const started = await serveHttpApi({ stack, verifier, port: 0, ...options });
  served.push(started);
  return started;
};

// A request with headers fetch will not send (Host), as a reverse proxy would pass it on.
function raw(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.once('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

// Plays the user's browser up to the redirect: the callback URL with code, state and iss.
async function pendingLogin(token: string): Promise<URL> {
  const started = await apiCall(api.url, token, 'POST', '/v1/servers/linear/oauth');
  const { authorizationUrl } = (await started.json()) as { authorizationUrl: string };
  const redirect = await fetch(authorizationUrl, { redirect: 'manual' });
  return new URL(redirect.headers.get('location') as string);
}

beforeAll(async () => {
  fixture = spawn(process.execPath, [serverFixtures.oauth], { stdio: ['ignore', 'pipe', 'pipe'] });
  authServer = await new Promise<string>((resolve) => {
    fixture.stdout?.on('data', (chunk: Buffer) => {
      const match = /listening (\S+)/.exec(chunk.toString());
      if (match?.[1] !== undefined) resolve(match[1]);
    });
  });
  stack = await openAgentStack({
    home: mkdtempSync(join(tmpdir(), 'mcp-oauth-callback-')),
    // The authorisation server is a loopback fixture: development mode lets OAuth reach it.
    env: {
      MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64'),
      MCP_AGENT_OAUTH_ALLOW_PRIVATE: '1',
    },
    userServers: { stdio: 'none', remote: 'any' },
    sandbox: false,
  });
  api = await serve();
  for (const token of [ALICE, BOB]) {
    const added = await apiCall(api.url, token, 'POST', '/v1/servers', {
      id: 'linear',
      transport: 'streamable-http',
      url: `${authServer}/mcp`,
    });
    expect(added.status).toBe(201);
  }
});
afterAll(async () => {
  for (const server of served) await server.close();
  await stack.close();
  fixture.kill('SIGKILL');
});

describe('the OAuth callback', () => {
  it("API-04 a wrong state leaves the user's pending login untouched, and every failure looks the same", async () => {
    const callback = await pendingLogin(ALICE);
    const code = callback.searchParams.get('code') as string;
    const attempts = [
      `user=alice&server=linear&code=${code}&state=forged`, // wrong state, known user and server
      `user=alice&server=linear&code=${code}`, // no state
      `user=alice&server=jira&code=${code}&state=forged`, // a server Alice does not have
      `user=nobody&server=linear&code=${code}&state=forged`, // a user that does not exist
      `user=bob&server=linear&code=${code}&state=forged`, // a user with no pending login
      `server=linear&code=${code}`, // no user
    ];
    const answers = new Set<string>();
    for (const query of attempts) {
      const response = await fetch(`${api.url}/v1/oauth/callback?${query}`);
      answers.add(`${response.status} ${await response.text()}`);
    }
    expect([...answers]).toEqual([
      `400 ${JSON.stringify({
        error: {
          code: 'INVALID_ARGUMENTS',
          message:
            'This sign-in link is not valid: it is wrong, expired or already used. Start signing in again.',
        },
      })}`,
    ]);
    // None of that touched Alice's login: her own callback completes it, once.
    const completed = await fetch(callback);
    expect(completed.status).toBe(200);
    expect(await completed.text()).toMatch(/Signed in/);
    expect(await stack.registry.isAuthorized(createContext({ userId: 'alice' }), 'linear')).toBe(
      true,
    );
    const replayed = await fetch(callback);
    expect(`${replayed.status} ${await replayed.text()}`).toBe([...answers][0]);
  });

  it('API-05 behind an https proxy, the public URL builds the redirect; forwarded headers count only when trusted', async () => {
    const redirectOf = async (base: string, headers: Record<string, string>) => {
      const answer = await raw(base, 'POST', '/v1/servers/linear/oauth', {
        authorization: `Bearer ${BOB}`,
        ...headers,
      });
      expect(answer.status).toBe(200);
      const { authorizationUrl } = JSON.parse(answer.body) as { authorizationUrl: string };
      return new URL(authorizationUrl).searchParams.get('redirect_uri');
    };
    const proxied = {
      host: 'agent.example.com',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'agent.example.com',
    };
    const configured = await serve({ publicUrl: 'https://agent.example.com/' });
    expect(await redirectOf(configured.url, proxied)).toBe(
      'https://agent.example.com/v1/oauth/callback?user=bob&server=linear',
    );
    const trusting = await serve({ trustProxy: true });
    expect(await redirectOf(trusting.url, proxied)).toBe(
      'https://agent.example.com/v1/oauth/callback?user=bob&server=linear',
    );
    // Not told to trust a proxy: anyone can send X-Forwarded-*, so they are ignored.
    const { port } = new URL(api.url);
    expect(
      await redirectOf(api.url, {
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'evil.example',
      }),
    ).toBe(`http://127.0.0.1:${port}/v1/oauth/callback?user=bob&server=linear`);
    const refused = await raw(api.url, 'POST', '/v1/servers/linear/oauth', {
      authorization: `Bearer ${BOB}`,
      ...proxied,
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatch(/redirect URI must be https/);
    // The gateway behind the proxy accepts the public host and origin (DNS-rebinding check).
    const initialize = async (base: string) =>
      (
        await raw(
          base,
          'POST',
          '/mcp',
          {
            ...proxied,
            authorization: `Bearer ${BOB}`,
            origin: 'https://agent.example.com',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          MCP_INITIALIZE,
        )
      ).status;
    expect(await initialize(configured.url)).toBe(200);
    expect(await initialize(api.url)).toBe(403);
  });
});
