import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext, InvalidArgumentsError, ToolNotFoundError } from '@mcp-agent/core';
import { createManualClock } from '@mcp-agent/core/testing';
import type { Registry } from '@mcp-agent/registry';
import { createTestRegistry } from '@mcp-agent/registry/testing';
import { Knowledge } from './knowledge.js';
import type { KnowledgeSearchOptions } from './knowledge-options.js';

const clock = createManualClock();
const alice = createContext({ userId: 'alice', clock });
const bob = createContext({ userId: 'bob', clock });

const githubTools = [
  {
    name: 'create_issue',
    description: 'Create a new issue in a GitHub repository',
    inputSchema: {
      type: 'object',
      properties: { repo: { type: 'string' }, title: { type: 'string' } },
      required: ['repo', 'title'],
    },
  },
  {
    name: 'list_issues',
    description: 'List issues of a repository',
    inputSchema: { type: 'object' },
  },
];
const mailTools = [
  { name: 'send_email', description: 'Send an email', inputSchema: { type: 'object' } },
];

async function addServer(
  registry: Registry,
  ctx = alice,
  id = 'github',
  tools: unknown[] = githubTools,
) {
  await registry.addServer(ctx, {
    id,
    transport: 'streamable-http',
    url: `https://${id}.example/mcp`,
  });
  await registry.replaceCatalog(ctx, id, tools);
  await registry.recordState(ctx, id, { status: 'ready' });
}

describe('Knowledge', () => {
  let registry: Registry;
  let knowledge: Knowledge;
  beforeEach(async () => {
    registry = await createTestRegistry();
    knowledge = new Knowledge({ registry });
    await addServer(registry);
    await addServer(registry, alice, 'mail', mailTools);
  });
  afterEach(async () => {
    await registry.close();
  });

  it("searches the tenant's tools and returns slim results", async () => {
    const results = await knowledge.search(alice, 'open a new issue');
    expect(results[0]).toEqual({
      tool_id: 'github.create_issue',
      description: 'Create a new issue in a GitHub repository',
      score: expect.any(Number),
      relevance: expect.any(Number),
    });
    expect(Object.keys(results[0] ?? {}).sort()).toEqual([
      'description',
      'relevance',
      'score',
      'tool_id',
    ]);
    // Relevance follows the order of the results (#29).
    const relevances = results.map((r) => r.relevance);
    expect(relevances).toEqual([...relevances].sort((a, b) => b - a));
  });

  it("never returns another tenant's tools, even with the same server id", async () => {
    expect(await knowledge.search(bob, 'create issue')).toEqual([]);
    await addServer(registry, bob, 'github', [
      { name: 'delete_repo', description: 'Delete a repository' },
    ]);
    const bobs = await knowledge.search(bob, 'issue repository', { limit: 10 });
    expect(bobs.map((r) => r.tool_id)).toEqual(['github.delete_repo']);
    expect(
      (await knowledge.search(alice, 'delete repository', { limit: 10 })).map((r) => r.tool_id),
    ).not.toContain('github.delete_repo');
  });

  it('filters by server and by the request allow-list', async () => {
    expect(
      (await knowledge.search(alice, 'send create', { servers: ['mail'], limit: 10 })).map(
        (r) => r.tool_id,
      ),
    ).toEqual(['mail.send_email']);
    // `providers`, the option's name before issue 31, still filters.
    const old = { providers: ['mail'], limit: 10 } as KnowledgeSearchOptions;
    expect((await knowledge.search(alice, 'send create', old)).map((r) => r.tool_id)).toEqual([
      'mail.send_email',
    ]);
    expect(
      (
        await knowledge.search(
          createContext({ userId: 'alice', allowServers: ['mail'], clock }),
          'create issue email',
          { limit: 10 },
        )
      ).map((r) => r.tool_id),
    ).toEqual(['mail.send_email']);
  });

  it('updates incrementally: a changed catalog, a removed server, a failed server', async () => {
    await knowledge.search(alice, 'issue');
    await registry.replaceCatalog(alice, 'github', [
      ...githubTools,
      { name: 'close_issue', description: 'Close an issue' },
    ]);
    expect((await knowledge.search(alice, 'close_issue'))[0]?.tool_id).toBe('github.close_issue');
    await registry.removeServer(alice, 'mail');
    expect(
      (await knowledge.search(alice, 'send email', { limit: 10 })).map((r) => r.tool_id),
    ).not.toContain('mail.send_email');
    await registry.recordState(alice, 'github', { status: 'failed', lastError: 'boom' });
    expect(await knowledge.search(alice, 'issue')).toEqual([]);
  });

  it('a clear error for an empty query', async () => {
    await expect(knowledge.search(alice, '  ')).rejects.toBeInstanceOf(InvalidArgumentsError);
  });

  it('deep view describes known tools and returns not-found errors with suggestions', async () => {
    const { tools, errors } = await knowledge.deepView(alice, [
      'github.create_issue',
      'github.create_isue',
      'nope.x',
      'bad id',
    ]);
    expect(tools.map((t) => t.tool_id)).toEqual(['github.create_issue']);
    expect(tools[0]?.parameters.filter((p) => p.required).map((p) => p.path)).toEqual([
      'repo',
      'title',
    ]);
    expect(errors).toHaveLength(3);
    expect(errors.every((e) => ToolNotFoundError.isInstance(e))).toBe(true);
    expect(errors[0]?.details.suggestions).toContain('github.create_issue');
    expect(errors[0]?.message).toMatch(/Did you mean github\.create_issue/);
    expect((await knowledge.deepView(bob, ['github.create_issue'])).errors).toHaveLength(1);
  });

  it("the inventory view lists the tenant's servers and tools", async () => {
    const view = await knowledge.inventoryView(alice);
    expect(view).toContain('## github (2 tools)');
    expect(view).toContain('create_issue, list_issues');
    expect(await knowledge.inventoryView(bob)).toMatch(/No MCP servers/);
  });

  it('the manifest marks tools of unavailable servers with the reason', async () => {
    await registry.recordState(alice, 'mail', { status: 'failed', lastError: 'spawn ENOENT' });
    const manifest = await knowledge.manifest(alice);
    const mail = manifest.servers.find((p) => p.server.id === 'mail');
    expect(mail).toMatchObject({
      available: false,
      reason: expect.stringContaining('spawn ENOENT'),
    });
    expect(mail?.tools[0]).toMatchObject({
      available: false,
      reason: expect.stringContaining('spawn ENOENT'),
    });
    expect(manifest.servers.find((p) => p.server.id === 'github')?.available).toBe(true);
  });
});
