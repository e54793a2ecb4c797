// The MCP client entry point the official conformance suite drives:
//   conformance client --command "node packages/registry/dist/bin/conformance-client.js" --scenario <name>
// The suite appends the server URL and sets MCP_CONFORMANCE_SCENARIO (and, for some scenarios,
// MCP_CONFORMANCE_CONTEXT). It runs our real stack: an in-memory registry, the connection pool,
// and OAuthService, acting as the user's browser for authorisation.
import { randomBytes } from 'node:crypto';
import { createContext, McpAgentError } from '@mcp-agent/core';
import {
  OAuthService,
  type AuthChallenge,
  type AuthorizationHints,
} from '../connections/oauth/oauth-service.js';
import { OAUTH_FIELDS } from '../connections/oauth/vault-oauth-provider.js';
import { openRegistry } from '../open-registry.js';
import { repositoriesOf } from '../store/tenant-store.js';
import { ConnectionPool } from '../connections/pool/connection-pool.js';

const serverUrl = process.argv.at(-1) as string;
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? 'initialize';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as {
  client_id?: string;
  client_secret?: string;
};
const REDIRECT = 'http://localhost:3000/callback';
const SERVER = 'conformance';

const registry = await openRegistry({
  url: ':memory:',
  env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
});
const oauth = new OAuthService(registry, {
  clientName: 'mcp-agent-conformance',
  // The suite's CIMD scenario expects this document URL as the client id.
  clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
  // The suite's authorisation servers listen on loopback http.
  allowPrivateNetwork: true,
});
const pool = new ConnectionPool(registry, {
  oauth,
  attempts: 1,
  pingIntervalMs: 0,
  attemptTimeoutMs: 20_000,
});
const ctx = createContext({ userId: 'conformance' });
let exitCode = 0;
try {
  await registry.addServer(ctx, { id: SERVER, transport: 'streamable-http', url: serverUrl });
  if (scenario.startsWith('auth/')) {
    // An OAuth server: the first connect goes out without a token and fails with the challenge
    // that says where the metadata is and which scope to ask for; authorise, then connect again.
    await repositoriesOf(registry).authConfigs.upsert(ctx, { serverId: SERVER, kind: 'oauth' });
    await pool.waitForReady(ctx, [SERVER], { timeoutMs: 25_000 }).catch(async (error: unknown) => {
      const challenge = oauth.lastChallenge(ctx, SERVER);
      if (challenge?.status !== 401) throw error;
      await browse(hintsOf(challenge));
    });
  }
  await pool.waitForReady(ctx, [SERVER], { timeoutMs: 25_000 });
  const tools = await registry.storedTools(ctx, SERVER);
  // Exercise the session: call the first tool the server lists (scenarios check the call).
  for (const tool of tools.slice(0, 1)) {
    const properties =
      (tool.raw.inputSchema as { properties?: Record<string, unknown> } | undefined)?.properties ??
      {};
    const args = Object.fromEntries(
      Object.keys(properties).map((name) => [
        name,
        name === 'a' || name === 'b' ? 1 : 'conformance',
      ]),
    );
    await callWithStepUp(tool.name, args);
  }
} catch (error) {
  exitCode = 1;
  const message = McpAgentError.isInstance(error)
    ? `${error.code}: ${error.message}`
    : String(error);
  process.stderr.write(`conformance client failed: ${message}\n`);
} finally {
  await pool.close();
  await registry.close();
}
process.exit(exitCode);

// A 403 insufficient_scope asks for more scope: step up and retry, a bounded number of times.
async function callWithStepUp(name: string, args: Record<string, unknown>): Promise<void> {
  for (let round = 0; ; round++) {
    try {
      await pool.callTool(ctx, SERVER, name, args);
      return;
    } catch (error) {
      const challenge = oauth.lastChallenge(ctx, SERVER);
      if (round >= 2 || challenge?.status !== 403 || challenge.error !== 'insufficient_scope')
        throw error;
      await browse(hintsOf(challenge));
    }
  }
}

function hintsOf(challenge: AuthChallenge): AuthorizationHints {
  return {
    ...(challenge.resourceMetadataUrl === undefined
      ? {}
      : { resourceMetadataUrl: challenge.resourceMetadataUrl }),
    ...(challenge.scope === undefined ? {} : { scope: challenge.scope }),
  };
}

// Plays the browser: start, follow the authorisation URL to the redirect, finish at the callback.
async function browse(hints: AuthorizationHints): Promise<void> {
  if (context.client_id !== undefined) {
    // auth/pre-registration: credentials issued out of band instead of dynamic registration.
    await repositoriesOf(registry).accounts.putSecret(
      ctx,
      SERVER,
      OAUTH_FIELDS.client,
      JSON.stringify({
        client_id: context.client_id,
        ...(context.client_secret ? { client_secret: context.client_secret } : {}),
      }),
    );
  }
  const { authorizationUrl } = await oauth.startOAuth(ctx, SERVER, REDIRECT, hints);
  if (authorizationUrl === '') return;
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (location === null)
    throw new Error(`the authorisation endpoint did not redirect (HTTP ${response.status})`);
  const callback = new URL(location);
  const code = callback.searchParams.get('code');
  if (code === null) throw new Error('the redirect carries no code');
  await oauth.finalizeOAuth(
    ctx,
    SERVER,
    code,
    callback.searchParams.get('state') ?? '',
    callback.searchParams.get('iss') ?? undefined,
  );
}
