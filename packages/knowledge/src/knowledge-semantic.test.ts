import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { createManualClock, createMemoryLogger } from '@mcp-agent/core/testing';
import { openRegistry, type Registry } from '@mcp-agent/registry';
import { Knowledge } from './knowledge.js';
import { OpenAiCompatibleEmbedder } from './semantic/openai-compatible-embedder.js';
import { startTestEmbeddingServer, type TestEmbeddingServer } from './testing/index.js';

const clock = createManualClock();
const randomKey = randomBytes(32).toString('base64');
const KEY = 'sk-semantic-test-key-abcdef';
// "horoscope" shares no word with the astrology tool; the test model knows they are one concept.
const concepts = [['horoscope', 'zodiac', 'astrology', 'star', 'signs']];

const tools = [
  { name: 'daily_reading', description: 'Daily reading for each of the zodiac signs' },
  { name: 'get_forecast', description: 'Weather forecast for a city' },
  { name: 'create_issue', description: 'Create a new issue in a repository' },
];
// Enough tools for two embedding requests of 64.
const manyTools = Array.from({ length: 70 }, (_, i) => ({
  name: `tool_${i}`,
  description: `Manages widget number ${i} of the factory`,
}));

describe('Knowledge with semantic ranking', () => {
  let home: string;
  let server: TestEmbeddingServer;
  const registries: Registry[] = [];
  beforeEach(async () => {
    home = mkdtempSync(join(tmpdir(), 'mcp-agent-semantic-'));
    server = await startTestEmbeddingServer({ apiKey: KEY, concepts });
  });
  afterEach(async () => {
    await Promise.all(registries.splice(0).map((r) => r.close()));
    await server.close();
    rmSync(home, { recursive: true, force: true });
  });

  // A registry on one SQLite file: a second call is the same database after a restart.
  async function openStore(): Promise<Registry> {
    const registry = await openRegistry({
      url: join(home, 'db.sqlite'),
      home,
      env: { MCP_AGENT_SECRET_KEY: randomKey },
    });
    registries.push(registry);
    return registry;
  }

  async function connect(registry: Registry, userId: string, id: string, list: object[]) {
    const ctx = createContext({ userId, clock });
    await registry.addServer(ctx, {
      id,
      transport: 'streamable-http',
      url: `https://${id}.example/mcp`,
    });
    await registry.replaceCatalog(
      ctx,
      id,
      list.map((t) => ({ ...t, inputSchema: { type: 'object' } })),
    );
    await registry.recordState(ctx, id, { status: 'ready' });
    return ctx;
  }

  function knowledgeOn(registry: Registry, options: { waitMs?: number; weight?: number } = {}) {
    return new Knowledge({
      registry,
      semantic: {
        embedder: new OpenAiCompatibleEmbedder({
          url: server.url,
          model: 'test-embed',
          apiKey: KEY,
          timeoutMs: 2_000,
        }),
        ...options,
      },
    });
  }

  it('finds by meaning what shares no word with the query, fused with the lexical ranking', async () => {
    const registry = await openStore();
    const alice = await connect(registry, 'alice', 'stars', tools);
    const query = 'horoscope for Leo today';
    const lexical = await new Knowledge({ registry }).search(alice, query);
    expect(lexical.map((r) => r.tool_id)).not.toContain('stars.daily_reading');
    const hybrid = await knowledgeOn(registry).search(alice, query, { limit: 3 });
    expect(hybrid[0]?.tool_id).toBe('stars.daily_reading');
    // Found by meaning only: its words cover none of the query, so no good match is claimed.
    const answer = await knowledgeOn(registry).searchMany(alice, query);
    expect(answer.warnings).toBeUndefined();
    expect(answer.queries[0]).toMatchObject({ no_good_match: true });
    expect(answer.queries[0]?.closest?.[0]?.tool_id).toBe('stars.daily_reading');
    // The words still lead where they match.
    const issue = await knowledgeOn(registry).searchMany(alice, 'create an issue');
    expect(issue.queries[0]?.matches[0]?.tool_id).toBe('stars.create_issue');
  });

  it('never embeds a tool twice: not for another tenant, not after a restart', async () => {
    const first = await openStore();
    const alice = await connect(first, 'alice', 'stars', tools);
    await knowledgeOn(first).searchMany(alice, 'weather in Paris');
    // Three tools and one query.
    expect(server.embeddedTexts).toBe(4);
    const bob = await connect(first, 'bob', 'stars', tools);
    await knowledgeOn(first).searchMany(bob, 'weather in Paris');
    expect(server.embeddedTexts).toBe(5);
    await first.close();
    registries.length = 0;

    const restarted = await openStore();
    const sent = server.requests.length;
    await knowledgeOn(restarted).searchMany(alice, 'create an issue');
    const after = server.requests.slice(sent).flatMap((r) => r.body.input as string[]);
    expect(after).toEqual(['create an issue']);
    expect(await restarted.embeddings.count('test-embed')).toBe(3);
  });

  it('answers lexically, with a warning, when the endpoint is down, and tries again later', async () => {
    const registry = await openStore();
    const memory = createMemoryLogger();
    const alice = createContext({ userId: 'alice', clock, logger: memory.logger });
    await connect(registry, 'alice', 'stars', tools);
    server.failAfter(0, 'http-500');
    const knowledge = knowledgeOn(registry);
    const answer = await knowledge.searchMany(alice, 'create an issue');
    expect(answer.queries[0]?.matches[0]?.tool_id).toBe('stars.create_issue');
    expect(answer.warnings).toEqual([
      expect.stringMatching(
        /Semantic ranking is unavailable \(.*answered 500.*\); results are lexical only/,
      ),
    ]);
    expect(memory.text()).toMatch(/semantic ranking failed; answering lexically/);
    expect(memory.text()).not.toContain(KEY);
    // Within the pause the endpoint is not asked again.
    const asked = server.requests.length;
    await knowledge.searchMany(alice, 'create an issue');
    expect(server.requests.length).toBe(asked);
    server.failAfter(0, undefined);
    clock.advance(31_000);
    expect((await knowledge.searchMany(alice, 'create an issue')).warnings).toBeUndefined();
    expect((await knowledge.search(alice, 'create an issue'))[0]?.tool_id).toBe(
      'stars.create_issue',
    );
  });

  it('an endpoint that fails mid-run keeps what it embedded, and the search goes on lexically', async () => {
    const registry = await openStore();
    const alice = await connect(registry, 'alice', 'widgets', manyTools);
    // The first request (64 tools) is answered, the second (6 tools) fails.
    server.failAfter(1, 'http-500');
    const knowledge = knowledgeOn(registry);
    const answer = await knowledge.searchMany(alice, 'widget number 7');
    expect(answer.warnings?.[0]).toMatch(/unavailable.*lexical only/);
    expect(answer.queries[0]?.matches[0]?.tool_id).toBe('widgets.tool_7');
    expect(await registry.embeddings.count('test-embed')).toBe(64);

    // Healed and past the pause: only the 6 missing tools (and the query) are embedded.
    server.failAfter(0, undefined);
    clock.advance(31_000);
    const before = server.embeddedTexts;
    const healed = await knowledge.searchMany(alice, 'widget number 7');
    expect(healed.warnings).toBeUndefined();
    expect(server.embeddedTexts - before).toBe(7);

    // Everything embedded, then the endpoint dies while queries are embedded.
    server.failAfter(0, 'reset');
    const late = await knowledge.searchMany(alice, 'widget number 9');
    expect(late.warnings?.[0]).toMatch(/cannot be reached.*lexical only/);
    expect(late.queries[0]?.matches[0]?.tool_id).toBe('widgets.tool_9');
  });

  it('a search does not wait past waitMs for a catalog to be embedded', async () => {
    const registry = await openStore();
    const alice = await connect(registry, 'alice', 'stars', tools);
    server.failAfter(0, 'hang');
    const answer = await knowledgeOn(registry, { waitMs: 50 }).searchMany(alice, 'create an issue');
    expect(answer.warnings?.[0]).toMatch(/still embedding this catalog's tools \(3 to go\)/);
    expect(answer.queries[0]?.matches[0]?.tool_id).toBe('stars.create_issue');
  });
});
