import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { createManualClock } from '@mcp-agent/core/testing';
import { openRegistry, type Registry } from '@mcp-agent/registry';
import { Knowledge } from '../knowledge.js';
import type { SearchDocument, SearchHit } from '../search/search-document.js';
import {
  fuseSignals,
  type RankingSignal,
  type SignalHit,
  type SignalScope,
} from './ranking-signal.js';

const doc = (id: string): SearchDocument => ({
  id,
  server: id.split('.')[0]!,
  name: id.split('.')[1]!,
  description: '',
  parameters: [],
});
const hit = (id: string, score: number, relevance = 0.5): SearchHit => ({
  ...doc(id),
  score,
  relevance,
});

describe('fuseSignals', () => {
  it('weighs each ranking by its share of its best, the lexical one by what the others leave', () => {
    const fused = fuseSignals(
      [hit('a.one', 10), hit('a.two', 5)],
      [
        { weight: 0.25, hits: [{ id: 'a.two', score: 0.8 }] },
        {
          weight: 0.25,
          hits: [
            { id: 'b.three', score: 4 },
            { id: 'a.one', score: -1 },
          ],
        },
      ],
      doc,
    );
    // a.one: 0.5·1 + 0.25·0 (negative counts 0); a.two: 0.5·0.5 + 0.25·1; b.three: 0.25·1.
    expect(fused.map((h) => [h.id, h.score])).toEqual([
      ['a.one', 0.5],
      ['a.two', 0.5],
      ['b.three', 0.25],
    ]);
    // Only another signal found b.three: its words answer nothing, so relevance 0.
    expect(fused.find((h) => h.id === 'b.three')).toMatchObject({ server: 'b', relevance: 0 });
    expect(fused.find((h) => h.id === 'a.two')?.relevance).toBe(0.5);
  });

  it('leaves the lexical ranking as it is with no other signal, and drops unknown tools', () => {
    expect(fuseSignals([hit('a.one', 3), hit('a.two', 1)], [], doc).map((h) => h.score)).toEqual([
      1, 0.333,
    ]);
    expect(
      fuseSignals([], [{ weight: 0.5, hits: [{ id: 'gone.tool', score: 1 }] }], () => undefined),
    ).toEqual([]);
  });

  it('gives the lexical ranking no weight once the signals take it all', () => {
    const fused = fuseSignals(
      [hit('a.one', 10)],
      [{ weight: 1.5, hits: [{ id: 'a.two', score: 1 }] }],
      doc,
    );
    expect(fused.map((h) => [h.id, h.score])).toEqual([
      ['a.two', 1],
      ['a.one', 0],
    ]);
  });
});

// An in-memory signal: it "knows" that a request for a horoscope means the zodiac tool.
class ConceptSignal implements RankingSignal {
  readonly name = 'concepts';
  readonly calls: { queries: readonly string[]; servers: string[] }[] = [];
  constructor(
    readonly weight: number,
    readonly goodMatch?: number,
    private readonly failing = false,
  ) {}
  async rank(queries: readonly string[], scope: SignalScope) {
    this.calls.push({ queries, servers: [...scope.servers] });
    if (this.failing) return { warning: 'concepts are unavailable' };
    const ranked = new Map<string, SignalHit[]>();
    for (const query of queries) {
      const ids = [...scope.index.documents()]
        .filter((d) => scope.servers.has(d.server) && query.includes('horoscope'))
        .filter((d) => d.description.includes('zodiac'))
        .map((d) => ({ id: d.id, score: 0.9 }));
      ranked.set(query, ids.slice(0, scope.depth));
    }
    return { ranked };
  }
}

describe('Knowledge with a ranking signal', () => {
  let home: string;
  const registries: Registry[] = [];
  const clock = createManualClock();
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'mcp-agent-signal-'));
  });
  afterEach(async () => {
    await Promise.all(registries.splice(0).map((r) => r.close()));
    rmSync(home, { recursive: true, force: true });
  });

  async function setUp(signal: RankingSignal) {
    const registry = await openRegistry({
      url: join(home, 'db.sqlite'),
      home,
      env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
    });
    registries.push(registry);
    const ctx = createContext({ userId: 'u1', clock });
    await registry.addServer(ctx, {
      id: 'stars',
      transport: 'streamable-http',
      url: 'https://s.example/mcp',
    });
    await registry.replaceCatalog(ctx, 'stars', [
      {
        name: 'daily_reading',
        description: 'Daily reading for each of the zodiac signs',
        inputSchema: { type: 'object' },
      },
      {
        name: 'get_forecast',
        description: 'Weather forecast for a city',
        inputSchema: { type: 'object' },
      },
    ]);
    await registry.recordState(ctx, 'stars', { status: 'ready' });
    const knowledge = new Knowledge({ registry, signals: [signal], idleMs: 0 });
    return { ctx, knowledge };
  }

  it('brings a tool that shares no word with the request into the answer', async () => {
    const signal = new ConceptSignal(0.5);
    const { ctx, knowledge } = await setUp(signal);
    const answer = await knowledge.searchMany(ctx, ['my horoscope for today']);
    expect(answer.servers.flatMap((s) => s.tools.map((t) => t.tool_id))).toContain(
      'stars.daily_reading',
    );
    expect(signal.calls).toEqual([{ queries: ['my horoscope for today'], servers: ['stars'] }]);
    // Relevance measures words: without the signal's own threshold, still no good match.
    expect(answer.queries[0]?.no_good_match).toBe(true);
    knowledge.close();
  });

  it("counts as a good match at the signal's own threshold", async () => {
    const { ctx, knowledge } = await setUp(new ConceptSignal(0.5, 0.8));
    const answer = await knowledge.searchMany(ctx, ['my horoscope for today']);
    expect(answer.queries[0]).toMatchObject({ no_good_match: false });
    expect(answer.queries[0]?.matches[0]?.tool_id).toBe('stars.daily_reading');
    knowledge.close();
  });

  it('answers from the words alone, with a warning, when the signal fails', async () => {
    const { ctx, knowledge } = await setUp(new ConceptSignal(0.5, 0.8, true));
    const answer = await knowledge.searchMany(ctx, ['weather forecast']);
    expect(answer.warnings).toEqual(['concepts are unavailable']);
    expect(answer.queries[0]?.matches[0]?.tool_id).toBe('stars.get_forecast');
    knowledge.close();
  });
});
