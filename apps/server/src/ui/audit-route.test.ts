import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import type { AuditEntry } from '@mcp-agent/registry';
import { serveHttpApi } from '../api/serve-api.js';
import { OperatorToken } from '../auth/operator-token.js';
import { StaticTokenVerifier } from '../auth/token-verifier.js';

// The audit log as the operator reads it after an incident, on the real server over loopback:
// acts through the HTTP API land in the tenant's log; the tenant reads its own, the operator
// anyone's.

const home = mkdtempSync(join(tmpdir(), 'mcp-audit-route-'));
const TOKENS = { alice: 'a'.repeat(32), bob: 'b'.repeat(32), operator: 'o'.repeat(40) };
let stack: AgentStack;
let api: Awaited<ReturnType<typeof serveHttpApi>>;

const send = (path: string, token: string, init: RequestInit = {}) =>
  fetch(`${api.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
const audit = async (token: string, query = '') => {
  const response = await send(`/ui/api/audit${query}`, token);
  return { status: response.status, body: (await response.json()) as { entries: AuditEntry[] } };
};

beforeAll(async () => {
  stack = await openAgentStack({
    home,
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
    userServers: { stdio: 'none', remote: 'public' },
    sandbox: false,
  });
  api = await serveHttpApi({
    stack,
    port: 0,
    verifier: new StaticTokenVerifier({ [TOKENS.alice]: 'alice', [TOKENS.bob]: 'bob' }),
    observability: { operator: new OperatorToken(TOKENS.operator), ui: true },
  });
});
afterAll(async () => {
  await api?.close();
  await stack?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('the audit log', () => {
  it("records who added and removed whose servers through the API; a tenant reads its own, the operator anyone's", async () => {
    const body = JSON.stringify({ id: 'docs', url: 'https://docs.example.com/mcp' });
    expect((await send('/v1/servers', TOKENS.alice, { method: 'POST', body })).status).toBe(201);
    expect((await send('/v1/servers/docs', TOKENS.alice, { method: 'DELETE' })).status).toBe(204);
    const own = await audit(TOKENS.alice);
    expect(own.status).toBe(200);
    expect(own.body.entries.map((e) => [e.action, e.serverId, e.actor])).toEqual([
      ['server.removed', 'docs', 'alice'],
      ['server.added', 'docs', 'alice'],
    ]);
    // Bob's token shows Bob's log only, whatever tenant it names.
    expect((await audit(TOKENS.bob, '?tenant=alice')).body.entries).toEqual([]);
    // The operator names the tenant, and pages with ?before=.
    const operator = await audit(TOKENS.operator, '?tenant=alice&limit=1');
    expect(operator.body.entries.map((e) => e.action)).toEqual(['server.removed']);
    const next = await audit(
      TOKENS.operator,
      `?tenant=alice&before=${operator.body.entries[0]?.seq}`,
    );
    expect(next.body.entries.map((e) => e.action)).toEqual(['server.added']);
    expect((await audit(TOKENS.operator, '?tenant=alice&before=x')).status).toBe(400);
  });

  it('AUTH-22 the operator names a tenant exactly: a look-alike of alice is refused with the reason, not shown as hers', async () => {
    for (const [lookAlike, reason] of [
      ['alice%20', /whitespace \(U\+0020\)/],
      ['alice%C2%A0', /whitespace \(U\+00A0\)/],
      ['A%CC%8Angstr%C3%B6m', /not in Unicode normal form C/],
    ] as const) {
      const response = await send(`/ui/api/audit?tenant=${lookAlike}`, TOKENS.operator);
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toMatch(reason);
    }
  });
});
