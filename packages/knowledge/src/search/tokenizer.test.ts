import { describe, expect, it } from 'vitest';
import { expandQuery } from './thesaurus.js';
import { normalizeTerm, splitWords, tokenize } from './tokenizer.js';

describe('tokenizer', () => {
  it.each([
    ['create_issue', ['create', 'issue']],
    ['createIssue', ['create', 'issue']],
    ['HTTPServerError', ['http', 'server', 'error']],
    ['list-pull-requests', ['list', 'pull', 'requests']],
    ['github.search_code', ['github', 'search', 'code']],
    ['files/read_file', ['files', 'read', 'file']],
    ['getV2Users', ['get', 'v', '2', 'users']],
    ['Café_Menü', ['café', 'menü']],
  ])('splits %s', (input, words) => {
    expect(splitWords(input)).toEqual(words);
  });

  it('stems, drops stop words, keeps short words and numbers', () => {
    expect(tokenize('Can you please search the repositories for issues?')).toEqual([
      'search',
      'repositori',
      'issu',
    ]);
    expect(normalizeTerm('the')).toBeNull();
    expect(normalizeTerm('api')).toBe('api');
    expect(normalizeTerm('2024')).toBe('2024');
    expect(tokenize('emails emailing emailed')).toEqual(['email', 'email', 'email']);
  });

  it('expands with the thesaurus but never repeats a query term', () => {
    const expanded = expandQuery(tokenize('fetch picture'));
    expect(expanded).toEqual(expect.arrayContaining(['get', 'imag', 'photo']));
    expect(expanded).not.toContain('fetch');
    expect(expandQuery(tokenize('zyxwv'))).toEqual([]);
  });

  it.each([
    // Dictionary words, and neighbour pairs for the characters the dictionary does not know.
    ['获取微博热搜榜', ['获取', '微', '博', '微博', '热', '博热', '搜', '热搜', '榜', '搜榜']],
    // Mixed text splits where the script changes; function characters are dropped.
    ['在GitHub上创建一个新的仓库', ['git', 'hub', '创建', '新的', '仓库']],
    ['查询12306余票信息', ['查询', '12306', '余', '票', '余票', '信息']],
    // Japanese: dictionary words, particles and auxiliaries dropped.
    ['天気予報を取得します', ['天気', '予報', '取得']],
    // Korean: syllable pairs, so "저장소를" (with its particle) still matches "저장소".
    ['저장소를 만들기', ['저장', '장소', '소를', '만들', '들기']],
    // Thai: dictionary words; tone and vowel marks stay inside them.
    ['ค้นหาข้อมูลสภาพอากาศ', ['ค้นหา', 'ข้อมูล', 'สภาพ', 'อากาศ']],
  ])('segments %s as a reader of its language would', (text, terms) => {
    expect(tokenize(text)).toEqual(terms);
  });

  it('never stems words of other scripts, and leaves English tokenizing as it was', () => {
    expect(normalizeTerm('ファイル')).toBe('ファイル');
    expect(tokenize('createIssue 仓库 issues')).toEqual(['creat', 'issu', '仓库', 'issu']);
  });
});
