import { describe, expect, it, vi } from 'vitest';
import { createContext, parseUserId } from '@mcp-agent/core';
import type * as Core from '@mcp-agent/core';
import { ALICE_TOKEN, text, useTestGateway } from './gateway-test-helpers.js';
import { createGatewayServer } from './gateway-server.js';

// The user-id check and the checking context factory, counted: the real ones behind spies, so
// every module of the gateway, agent and registry that imports them from core is seen.
vi.mock('@mcp-agent/core', async (original) => {
  const real = await original<typeof Core>();
  return {
    ...real,
    parseUserId: vi.fn((value: unknown) => real.parseUserId(value)),
    createContext: vi.fn((options: Core.CreateContextOptions) => real.createContext(options)),
  };
});
const parsed = vi.mocked(parseUserId);
const checkingContexts = vi.mocked(createContext);
const forAlice = (calls: unknown[][]) =>
  calls.filter(([arg]) => arg === 'alice' || (arg as { userId?: unknown }).userId === 'alice')
    .length;

const gateway = useTestGateway();

describe('a gateway session checks its user id once', () => {
  it('makes every request context of a session from the UserId checked when it began', async () => {
    const client = await gateway.connect(ALICE_TOKEN);
    await client.listTools();
    // Warmed: the session exists and its first request discovered the servers.
    await client.callTool({ name: 'search_tools', arguments: { query: 'open an issue' } });
    parsed.mockClear();
    checkingContexts.mockClear();

    for (let i = 0; i < 4; i += 1) {
      const found = text(
        await client.callTool({ name: 'search_tools', arguments: { query: 'post a message' } }),
      );
      expect(found.queries[0].matches[0].tool_id).toBe('slack.post_message');
      await client.callTool({
        name: 'call_tool',
        arguments: { tool_id: 'github.create_issue', arguments: { title: `Bug ${i}` } },
      });
    }
    await client.listTools();
    // Twelve requests of a signed-in session: the id was never parsed again, and no request
    // context was made by the checking factory (each came from createCheckedContext).
    expect(forAlice(parsed.mock.calls)).toBe(0);
    expect(forAlice(checkingContexts.mock.calls)).toBe(0);
    await client.close();
  });

  it('refuses a look-alike id at the start of a session, never per request (AUTH-22)', () => {
    for (const lookAlike of ['alice ', 'jose\u0301', '../bob']) {
      expect(() => createGatewayServer({ stack: gateway.stack, userId: lookAlike })).toThrow(
        /Invalid user id/,
      );
    }
    parsed.mockClear();
    createGatewayServer({ stack: gateway.stack, userId: 'alice' });
    expect(forAlice(parsed.mock.calls)).toBe(1);
  });
});
