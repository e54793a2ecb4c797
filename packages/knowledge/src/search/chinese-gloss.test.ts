import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { byServer, toSearchDocument, type BenchTool } from '../testing/bench-data.js';
import { CedictGloss, cedictGloss, type GlossSource } from './chinese-gloss.js';
import { explainMatch } from './match-explanation.js';
import { ToolSearchIndex } from './tool-search-index.js';

// The real MCP tool catalog of ../shared/bench, read in place: 61 of its tools describe
// themselves in Chinese only.
function realCatalog(gloss?: GlossSource): ToolSearchIndex {
  const corpus = readFileSync(
    new URL('../../../../../shared/bench/catalogs/real-mcp-tools/corpus.jsonl', import.meta.url),
    'utf8',
  )
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as BenchTool);
  const index = new ToolSearchIndex({}, gloss);
  for (const [server, docs] of byServer(corpus.map(toSearchDocument)))
    index.setServer(server, docs);
  return index;
}

const missing: GlossSource = () => ({ unavailable: '@mcp-agent/cedict-data is not installed' });

describe('English glosses of Chinese descriptions (CC-CEDICT)', () => {
  it('cuts by greedy longest match and takes each word first real sense', () => {
    const gloss = CedictGloss.parse(
      [
        '# a comment',
        '天氣 天气 [tian1 qi4] /weather/',
        '天氣預報 天气预报 [tian1 qi4 yu4 bao4] /weather forecast/',
        '查詢 查询 [cha2 xun2] /to check/to inquire/',
        '王 王 [Wang2] /surname Wang/',
        '王 王 [wang2] /king or monarch/',
        '説 说 [shuo1] /variant of 說|说[shuo1]/to speak (colloquial)/',
      ].join('\n'),
    );
    expect(gloss.gloss('查询天气预报和天气')).toBe('to check weather forecast weather');
    // A proper name gives way to the common word; "variant of" senses and notes are skipped.
    expect(gloss.gloss('王说')).toBe('king or monarch to speak');
    expect(gloss.gloss('no Chinese here')).toBe('');
  });

  const glossed = realCatalog();
  const bare = realCatalog(missing);

  it.each([
    // English requests written for this test from what the Chinese descriptions say, in words
    // that are not the tools' names.
    ['best-seller novels', 'trends-hub/get-weread-rank'],
    ['things worth buying and shopping tips', 'trends-hub/get-smzdm-rank'],
  ])('an English request finds a Chinese-described tool through its gloss: %s', (query, id) => {
    expect(glossed.search(query, { limit: 5 }).map((hit) => hit.id)).toContain(id);
    // Without the dictionary the same request does not reach it: the gloss is what does.
    expect(bare.search(query, { limit: 10 }).map((hit) => hit.id)).not.toContain(id);
    expect(glossed.warnings).toEqual([]);
  });

  it('without the optional data package search still works, and says what is missing', () => {
    expect(bare.warnings).toEqual([expect.stringMatching(/Install @mcp-agent\/cedict-data/)]);
    expect(bare.search('微博热搜', { limit: 1 })[0]?.id).toBe('trends-hub/get-weibo-trending');
    expect(bare.search('create an issue', { limit: 1 })).toHaveLength(1);
  });

  it('is not loaded for a catalog without Chinese text', () => {
    let asked = 0;
    const index = new ToolSearchIndex({}, () => {
      asked++;
      return cedictGloss();
    });
    index.setServer('github', [
      {
        id: 'github.create_issue',
        server: 'github',
        name: 'create_issue',
        description: 'Create an issue',
        parameters: [],
      },
    ]);
    expect(asked).toBe(0);
    expect(index.warnings).toEqual([]);
  });

  it('the reasons shown say when a tool matched through its gloss', () => {
    const doc = glossed.get('trends-hub/get-weread-rank')!;
    expect(explainMatch('best-seller novels', doc).fields).toContainEqual(
      expect.objectContaining({ field: 'gloss', terms: expect.arrayContaining(['novel']) }),
    );
  });
});
