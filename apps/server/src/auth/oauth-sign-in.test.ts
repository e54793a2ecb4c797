import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  UnauthorizedError,
  type OAuthClientProvider,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { createContext } from '@mcp-agent/core';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { serveHttpApi } from '../api/serve-api.js';
import { JwtVerifier, protectedResourceAudiences } from './jwt-verifier.js';
import { serverFixtures } from '@mcp-agent/test-support';

// AUTH-15 end to end on loopback: a real authorization server (the MCP SDK's mcpAuthRouter in its
// own process), the SDK's client OAuth flow finding it through the gateway's 401 and metadata,
// and tool calls through the gateway with the JWT it issued, as the user its claim names.

const REDIRECT = 'http://127.0.0.1:9/callback';

/** The SDK client's OAuth storage for one signed-in user, in memory. */
class MemoryClientProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  #client: OAuthClientInformationMixed | undefined;
  #tokens: OAuthTokens | undefined;
  #verifier = '';
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'AUTH-15',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.#client;
  }
  saveClientInformation(client: OAuthClientInformationMixed) {
    this.#client = client;
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens: OAuthTokens) {
    this.#tokens = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.#verifier = verifier;
  }
  codeVerifier() {
    return this.#verifier;
  }
}

interface Issuer {
  readonly child: ChildProcess;
  readonly url: string;
  stats(): Promise<{
    jwksFetches: number;
    registrations: number;
    authorizationRequests: { user: string; resource: string | null; scopes: string[] }[];
    tokenRequests: { resource: string | null }[];
  }>;
}

async function startIssuer(): Promise<Issuer> {
  const script = serverFixtures.oauthIssuer;
  const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\S+)/.exec(out);
      if (match) resolve(match[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`the issuer exited ${code}`)));
  });
  return {
    child,
    url,
    stats: async () =>
      (await (await fetch(`${url}/__stats`)).json()) as Awaited<ReturnType<Issuer['stats']>>,
  };
}

const home = mkdtempSync(join(tmpdir(), 'mcp-sign-in-'));
let issuer: Issuer;
let stack: AgentStack;
let api: Awaited<ReturnType<typeof serveHttpApi>>;
let base: string;
const transcript: string[] = [];

// Every request the client (and the test's "browser") makes, and what it got.
const recorded =
  (who: string): FetchLike =>
  async (input, init) => {
    const response = await fetch(input, init);
    const url = new URL(input instanceof URL ? input.href : input);
    const challenge = response.headers.get('www-authenticate');
    transcript.push(
      `${who}: ${init?.method ?? 'GET'} ${url.origin === base ? 'gateway' : 'issuer'} ${url.pathname} → ${response.status}${challenge === null ? '' : ` WWW-Authenticate: ${challenge}`}`,
    );
    return response;
  };

// Signs `user` in the way an MCP client does, from nothing but the gateway's URL; returns a
// connected client.
async function signIn(user: string): Promise<{
  client: Client;
  transport: StreamableHTTPClientTransport;
  provider: MemoryClientProvider;
}> {
  const provider = new MemoryClientProvider();
  const options = { authProvider: provider, fetch: recorded(user) };
  const first = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), options);
  await expect(new Client({ name: user, version: '1' }).connect(first)).rejects.toBeInstanceOf(
    UnauthorizedError,
  );
  // The user's browser: the login page signs them in and redirects with the code.
  const authorize = new URL(provider.authorizationUrl as URL);
  authorize.searchParams.set('login', user);
  const page = await recorded(`${user}'s browser`)(authorize, { redirect: 'manual' });
  const callback = new URL(page.headers.get('location') as string);
  await first.finishAuth(callback.searchParams.get('code') as string);
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), options);
  const client = new Client({ name: user, version: '1' });
  await client.connect(transport);
  return { client, transport, provider };
}

const text = (result: unknown) =>
  JSON.parse(((result as { content: { text: string }[] }).content[0] as { text: string }).text) as {
    queries?: { matches: { tool_id: string }[] }[];
    result?: string;
  };

beforeAll(async () => {
  issuer = await startIssuer();
  const tools = {
    alice: { id: 'github', name: 'create_issue', description: 'Create an issue in a repository' },
    bob: { id: 'vault', name: 'read_vault', description: 'Read the company vault' },
  };
  const scripts = Object.fromEntries(
    Object.entries(tools).map(([user, tool]) => {
      const file = join(home, `${user}.json`);
      writeFileSync(
        file,
        JSON.stringify({
          tools: [
            {
              name: tool.name,
              description: tool.description,
              inputSchema: { type: 'object', properties: { title: { type: 'string' } } },
            },
          ],
        }),
      );
      return [user, file];
    }),
  );
  stack = await openAgentStack({
    home,
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
    userServers: {
      stdio: Object.values(scripts).map((file) => ({
        command: process.execPath,
        args: [serverFixtures.scripted, file],
      })),
      remote: 'public',
    },
    sandbox: false,
  });
  for (const [user, tool] of Object.entries(tools))
    await stack.registry.addServer(createContext({ userId: user }), {
      id: tool.id,
      transport: 'stdio',
      command: process.execPath,
      args: [serverFixtures.scripted, scripts[user] as string],
    });
  // The audience is this server's resource URI, so the port is chosen before the server starts.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  base = `http://127.0.0.1:${port}`;
  api = await serveHttpApi({
    stack,
    port,
    publicUrl: base,
    verifier: new JwtVerifier({
      issuer: issuer.url,
      audience: protectedResourceAudiences(base),
      // The issuer's `sub` is opaque; the tenant is the user name it signs in.
      userClaim: 'preferred_username',
      requiredScopes: ['mcp:tools'],
      allowPrivateNetwork: true,
    }),
  });
});
afterAll(async () => {
  await api?.close();
  await stack?.close();
  issuer?.child.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
  if (process.env.MCP_AGENT_PRINT_TRANSCRIPT === '1')
    process.stdout.write(`${transcript.join('\n')}\n`);
});

describe('signing in to the gateway with the MCP SDK client', () => {
  it('AUTH-15 goes from a 401 through the metadata to the issuer, signs in, and calls tools as the user of the token claim; tenants stay apart', async () => {
    const alice = await signIn('alice');
    const aliceSteps = transcript.filter((line) => line.startsWith('alice'));
    // What the client asked and got, in order: the challenge, our metadata, the issuer's, a
    // registration, the login; then (finishAuth discovers again) the token, and the gateway with
    // the JWT.
    expect(aliceSteps.slice(0, 9).map((line) => line.replace(/ WWW-Authenticate.*/, ''))).toEqual([
      'alice: POST gateway /mcp → 401',
      'alice: GET gateway /.well-known/oauth-protected-resource/mcp → 200',
      'alice: GET issuer /.well-known/oauth-authorization-server → 200',
      'alice: POST issuer /register → 201',
      "alice's browser: GET issuer /authorize → 302",
      'alice: GET gateway /.well-known/oauth-protected-resource/mcp → 200',
      'alice: GET issuer /.well-known/oauth-authorization-server → 200',
      'alice: POST issuer /token → 200',
      'alice: POST gateway /mcp → 200',
    ]);
    expect(aliceSteps[0]).toContain(
      `WWW-Authenticate: Bearer scope="mcp:tools", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
    );
    // The client asked for the gateway as the resource (RFC 8707) and for the scope it needs.
    const stats = await issuer.stats();
    expect(stats.authorizationRequests[0]).toEqual({
      user: 'alice',
      resource: `${base}/mcp`,
      scopes: ['mcp:tools'],
    });
    expect(stats.tokenRequests[0]).toEqual({ resource: `${base}/mcp` });

    const found = text(
      await alice.client.callTool({ name: 'search_tools', arguments: { query: 'open an issue' } }),
    );
    expect(found.queries?.[0]?.matches[0]?.tool_id).toBe('github.create_issue');
    await alice.client.callTool({
      name: 'describe_tools',
      arguments: { tool_ids: ['github.create_issue'] },
    });
    const called = text(
      await alice.client.callTool({
        name: 'call_tool',
        arguments: { tool_id: 'github.create_issue', arguments: { title: 'Signed in' } },
      }),
    );
    expect(called.result).toContain('"title":"Signed in"');

    // Bob signs in at the same issuer: his claim makes him another tenant.
    const bob = await signIn('bob');
    const bobSearches = async (query: string) =>
      JSON.stringify(
        text(await bob.client.callTool({ name: 'search_tools', arguments: { query, limit: 10 } })),
      );
    expect(await bobSearches('read the company vault')).toContain('vault.read_vault');
    expect(await bobSearches('create an issue')).not.toContain('github.create_issue');
    // Alice's session with Bob's token is a missing session.
    const hijack = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${bob.provider.tokens()?.access_token ?? ''}`,
        'mcp-session-id': alice.transport.sessionId as string,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(hijack.status).toBe(404);
    // Both verified against one JWKS fetch.
    expect((await issuer.stats()).jwksFetches).toBe(1);
    await alice.client.close();
    await bob.client.close();
  });

  it('AUTH-15 the JWT works on the HTTP API too, whose metadata names the whole server', async () => {
    const carol = await signIn('carol');
    const token = carol.provider.tokens()?.access_token as string;
    const servers = await fetch(`${base}/v1/servers`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(servers.status).toBe(200);
    expect(await servers.json()).toEqual({ servers: [] });
    const bare = await fetch(`${base}/v1/servers`);
    expect(bare.headers.get('www-authenticate')).toBe(
      `Bearer scope="mcp:tools", resource_metadata="${base}/.well-known/oauth-protected-resource"`,
    );
    await carol.client.close();
  });
});
