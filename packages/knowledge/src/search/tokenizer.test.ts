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
});
