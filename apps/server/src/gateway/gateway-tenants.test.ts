import { describe, expect, it } from 'vitest';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCP_INITIALIZE } from '../api/api-test-helpers.js';
import { ALICE_TOKEN, BOB_TOKEN, text, useTestGateway } from './gateway-test-helpers.js';

// Who may reach the gateway and what each user sees of another's: tokens, Origin, sessions.
const gateway = useTestGateway();
const connect = (token: string | undefined) => gateway.connect(token);

describe('the MCP gateway over streamable HTTP (multi-tenant)', () => {
  it("two users over HTTP never see each other's tools or sessions", async () => {
    const alice = await connect(ALICE_TOKEN);
    const bob = await connect(BOB_TOKEN);
    const aliceSees = JSON.stringify(
      text(
        await alice.callTool({
          name: 'search_tools',
          arguments: { query: 'read the company vault', limit: 10 },
        }),
      ),
    );
    const bobSees = JSON.stringify(
      text(
        await bob.callTool({
          name: 'search_tools',
          arguments: { query: 'create an issue', limit: 10 },
        }),
      ),
    );
    expect(aliceSees).not.toContain('secrets.read_vault');
    expect(bobSees).not.toContain('github.create_issue');
    // Alice's tool is unknown to Bob: he cannot describe it, so he cannot call it.
    const described = await bob.callTool({
      name: 'describe_tools',
      arguments: { tool_ids: ['github.create_issue'] },
    });
    expect(text(described).errors[0].code).toBe('TOOL_NOT_FOUND');
    const denied = await bob.callTool({
      name: 'call_tool',
      arguments: { tool_id: 'github.create_issue', arguments: { title: 'x' } },
    });
    expect(denied.isError).toBe(true);
    expect(JSON.stringify(text(denied))).not.toContain('"title"');
    // Alice's session id with Bob's token looks like a missing session.
    const sessionId = (alice.transport as StreamableHTTPClientTransport).sessionId as string;
    const hijack = await fetch(gateway.served.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${BOB_TOKEN}`,
        'mcp-session-id': sessionId,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(hijack.status).toBe(404);
    await alice.close();
    await bob.close();
  });

  it('refuses requests without a valid token (401) and from a foreign Origin (403, HTTP-12)', async () => {
    await expect(connect(undefined)).rejects.toThrow(/needs a bearer token/);
    // A wrong token is told it was wrong, not to send one.
    await expect(connect('not-a-real-token-at-all')).rejects.toThrow(/token was refused/);
    // The 401 names the gateway's protected-resource metadata (RFC 9728), served beside it.
    const bare = await fetch(gateway.served.url, { method: 'POST' });
    const metadataUrl = gateway.served.url.replace(
      /\/mcp$/,
      '/.well-known/oauth-protected-resource/mcp',
    );
    expect(bare.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    expect(await (await fetch(metadataUrl)).json()).toEqual({
      resource: gateway.served.url,
      bearer_methods_supported: ['header'],
      resource_name: 'mcp-agent gateway',
    });
    const evil = await fetch(gateway.served.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ALICE_TOKEN}`,
        origin: 'https://evil.example',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(MCP_INITIALIZE),
    });
    expect(evil.status).toBe(403);
  });
});
