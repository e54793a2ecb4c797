import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext, McpAgentError } from '@mcp-agent/core';
import type { Registry } from '@mcp-agent/registry';
import { createTestRegistry } from '@mcp-agent/registry/testing';
import { Knowledge } from './knowledge.js';
import { BROWSE_PAGE_SIZE, type ServerBrowseAnswer } from './server-browse.js';
import { firstSentence } from './views/description-text.js';

const alice = createContext({ userId: 'alice' });
const bob = createContext({ userId: 'bob' });

// 250 tools: three pages; their names sort differently from their numbers ("t_10" < "t_2").
const longTools = Array.from({ length: 250 }, (_, i) => ({
  name: `t_${i}`,
  description: `Does task number ${i} for the project. It takes care of details, e.g. the owner.\nMore text.`,
  inputSchema: { type: 'object' },
}));

async function connect(
  registry: Registry,
  ctx: typeof alice,
  id: string,
  tools: readonly { name: string; description: string }[],
  description?: string,
): Promise<void> {
  await registry.addServer(ctx, {
    id,
    transport: 'streamable-http',
    url: `https://${id}.example/mcp`,
    ...(description === undefined ? {} : { description }),
  });
  await registry.replaceCatalog(
    ctx,
    id,
    tools.map((tool) => ({ inputSchema: { type: 'object' }, ...tool })),
  );
  await registry.recordState(ctx, id, { status: 'ready' });
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(McpAgentError.isInstance(error)).toBe(true);
  const { code, message } = error as McpAgentError;
  return { code, message };
}

describe('Knowledge.browse', () => {
  let registry: Registry;
  let knowledge: Knowledge;
  beforeEach(async () => {
    registry = await createTestRegistry();
    knowledge = new Knowledge({ registry });
    await connect(registry, alice, 'big', longTools, 'A big server of tasks. It does many things.');
    await connect(registry, alice, 'small', [
      { name: 'ping', description: 'Checks the server answers.' },
      { name: 'echo', description: 'Says back what it is given' },
    ]);
  });
  afterEach(async () => {
    knowledge.close();
    await registry.close();
  });

  it('pages through a long server with the cursor to the end, every tool once, in name order', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    const pages: ServerBrowseAnswer[] = [];
    do {
      const page = await knowledge.browse(alice, ['big'], cursor === undefined ? {} : { cursor });
      pages.push(page);
      expect(page.servers.map((s) => s.server)).toEqual(['big']);
      expect(page.servers[0]!.tool_count).toBe(250);
      expect(page.servers[0]!.about).toBe('A big server of tasks.');
      const lines = page.servers[0]!.tools;
      expect(lines.length).toBeLessThanOrEqual(BROWSE_PAGE_SIZE);
      expect(page.shown).toEqual({
        from: seen.length + 1,
        to: seen.length + lines.length,
        of: 250,
      });
      seen.push(...lines);
      cursor = page.next_cursor;
    } while (cursor !== undefined && pages.length < 10);
    expect(pages.map((p) => p.servers[0]!.tools.length)).toEqual([100, 100, 50]);
    expect(BROWSE_PAGE_SIZE).toBe(100);
    expect(pages.at(-1)!.note).toMatch(/^The last tool of big \(250 in all\)/);
    expect(pages[0]!.note).toMatch(/Tools 1–100 of 250 of big: call search_tools again/);
    // Every tool once: the id, then the first sentence of its description.
    const ids = seen.map((line) => line.slice(0, line.indexOf(':')));
    expect(new Set(ids).size).toBe(250);
    expect([...ids].sort()).toEqual(longTools.map((t) => `big.${t.name}`).sort());
    expect(ids).toEqual([...ids].sort());
    expect(seen).toContain('big.t_7: Does task number 7 for the project.');
  });

  it('continues across servers in the order asked, and a cursor holds when the catalog changes', async () => {
    const first = await knowledge.browse(alice, ['small', 'big', 'small']);
    expect(first.servers.map((s) => [s.server, s.tools.length])).toEqual([
      ['small', 2],
      ['big', 98],
    ]);
    expect(first.servers[0]!.tools).toEqual([
      'small.echo: Says back what it is given',
      'small.ping: Checks the server answers.',
    ]);
    expect(first.shown).toEqual({ from: 1, to: 100, of: 252 });
    // A tool added before the cursor's place is not shown again; the page goes on after it.
    await registry.replaceCatalog(alice, 'big', [
      ...longTools,
      { name: 'a_new_one', description: 'Sorts first.', inputSchema: { type: 'object' } },
    ]);
    const second = await knowledge.browse(alice, ['small', 'big'], { cursor: first.next_cursor! });
    const last = first.servers[1]!.tools.at(-1)!;
    const next = second.servers[0]!.tools[0]!;
    expect(next.localeCompare(last)).toBeGreaterThan(0);
    expect(second.servers.flatMap((s) => s.tools)).not.toContain('big.a_new_one: Sorts first.');
  });

  it('refuses bad input with what was wrong and how to fix it', async () => {
    expect(await refusal(knowledge.browse(alice, []))).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      message: expect.stringMatching(/No server to browse: give the ids/),
    });
    expect(await refusal(knowledge.browse(alice, ['nope']))).toEqual({
      code: 'SERVER_NOT_FOUND',
      message:
        'Unknown server "nope": no server of yours has that id. Your servers: big, small. Browse one of them by its id.',
    });
    for (const cursor of [
      'garbage!',
      'bm90IGpzb24',
      Buffer.from('["big"]').toString('base64url'),
    ]) {
      expect(await refusal(knowledge.browse(alice, ['big'], { cursor }))).toMatchObject({
        code: 'INVALID_ARGUMENTS',
        message: expect.stringMatching(
          /is not one search_tools gave: pass next_cursor .* as it is/,
        ),
      });
    }
    const ofBig = (await knowledge.browse(alice, ['big'])).next_cursor!;
    expect(await refusal(knowledge.browse(alice, ['small'], { cursor: ofBig }))).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      message: expect.stringMatching(
        /continues a browse of server "big", which is not in "servers"/,
      ),
    });
  });

  it("browses only what the search may use: never another tenant's, nor one out of this request", async () => {
    // Bob has no server "big": alice's is invisible to him, and the error lists only his own.
    await connect(registry, bob, 'mine', [{ name: 'x', description: 'X.' }]);
    expect(await refusal(knowledge.browse(bob, ['big']))).toEqual({
      code: 'SERVER_NOT_FOUND',
      message:
        'Unknown server "big": no server of yours has that id. Your servers: mine. Browse one of them by its id.',
    });
    // Out of this request's allow-list, signed out, failed: each refused as a call would be.
    const allowed = createContext({ userId: 'alice', allowServers: ['small'] });
    expect(await refusal(knowledge.browse(allowed, ['big']))).toMatchObject({
      code: 'POLICY_DENIED',
      message: expect.stringMatching(/"big" is not in this request's allow-list/),
    });
    expect((await knowledge.browse(allowed, ['small'])).shown.of).toBe(2);
    await registry.recordState(alice, 'small', { status: 'needs_auth' });
    expect((await refusal(knowledge.browse(alice, ['small']))).code).toBe('UNAUTHORIZED');
    await registry.recordState(alice, 'small', { status: 'failed', lastError: 'boom' });
    expect(await refusal(knowledge.browse(alice, ['small']))).toMatchObject({
      code: 'NOT_READY',
      message: expect.stringMatching(/"small" failed: boom/),
    });
  });

  it('shows the first sentence of a description, cut when long', () => {
    expect(firstSentence('Reads a file. Then more.', 120)).toBe('Reads a file.');
    expect(firstSentence('Uses e.g. v1.2 of it. Then', 120)).toBe('Uses e.g. v1.2 of it.');
    expect(firstSentence('  One line\nsecond line. ', 120)).toBe('One line');
    expect(firstSentence('x'.repeat(300), 120)).toHaveLength(120);
    expect(firstSentence('', 120)).toBe('');
  });
});
