import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { byServer, toSearchDocument, type BenchTool } from '../testing/bench-data.js';
import type { SearchDocument } from './search-document.js';
import { ToolSearchIndex } from './tool-search-index.js';

// The real MCP tool catalog of ../shared/bench, read in place: 61 of its tools describe
// themselves in Chinese only.
function realCatalog(): ToolSearchIndex {
  const corpus = readFileSync(
    new URL('../../../../../shared/bench/catalogs/real-mcp-tools/corpus.jsonl', import.meta.url),
    'utf8',
  )
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as BenchTool);
  expect(corpus).toHaveLength(818);
  const index = new ToolSearchIndex();
  for (const [server, docs] of byServer(corpus.map(toSearchDocument)))
    index.setServer(server, docs);
  return index;
}

describe('search in other languages', () => {
  const index = realCatalog();

  it.each([
    // Queries written for this test, each for a tool described only in Chinese.
    ['微博热搜', 'trends-hub/get-weibo-trending'],
    ['查询火车余票', '12306-mcp/get-tickets'],
    ['今天吃什么', 'howtocook-mcp/mcp_howtocook_whatToEat'],
    ['今天的黄历', 'Bazi/getChineseCalendar'],
    ['把SVG转换成PNG图片', 'okppt/convert_svg_to_png'],
    ['用必应搜索关键词', 'bing-cn-mcp/bing_search'],
    ['知乎热榜', 'trends-hub/get-zhihu-trending'],
    ['列车经停站', '12306-mcp/get-train-route-stations'],
    // Japanese that shares its kanji with the Chinese description.
    ['微博のトレンドを見たい', 'trends-hub/get-weibo-trending'],
  ])('a Chinese-described tool is found first for %s', (query, id) => {
    expect(index.search(query, { limit: 3 })[0]?.id).toBe(id);
  });

  it('a Chinese query finds the right tool among the top 3 when its siblings compete', () => {
    expect(index.search('搜索游戏王卡牌', { limit: 3 }).map((h) => h.id)).toContain(
      'ygocdb/search_cards',
    );
  });

  it('English queries still find the same tools as before on the same catalog', () => {
    expect(index.search('create an issue on github', { limit: 1 })[0]?.id).toBe(
      'github/create_issue',
    );
  });

  it('Japanese and Korean descriptions are found by queries in their language', () => {
    const own = new ToolSearchIndex();
    const doc = (name: string, description: string): SearchDocument => ({
      id: `files.${name}`,
      server: 'files',
      name,
      description,
      parameters: [],
    });
    own.setServer('files', [
      doc('read_file', 'ファイルの内容を読み込みます'),
      doc('list_directory', 'ディレクトリの一覧を表示します'),
      doc('create_repository', '새 저장소를 만듭니다'),
      doc('delete_branch', '브랜치를 삭제합니다'),
    ]);
    expect(own.search('ファイルを読み込む')[0]?.id).toBe('files.read_file');
    expect(own.search('ディレクトリ一覧')[0]?.id).toBe('files.list_directory');
    expect(own.search('저장소 만들기')[0]?.id).toBe('files.create_repository');
    expect(own.search('브랜치 삭제')[0]?.id).toBe('files.delete_branch');
  });
});
