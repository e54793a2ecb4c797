import { describe, expect, it } from 'vitest';
import { explainMatch } from './match-explanation.js';

const doc = {
  id: 'github.create_issue',
  server: 'github',
  name: 'create_issue',
  description: 'Open a new issue in a GitHub repository',
  parameters: [{ name: 'repository', description: 'owner/name' }, { name: 'title' }],
};

describe('explainMatch', () => {
  it('names the fields each query term matched, stemmed as the index holds them', () => {
    const why = explainMatch('create issues on github', doc);
    expect(why.queryTerms).toEqual(['creat', 'issu', 'github']);
    expect(why.exact).toBe(false);
    expect(why.fields).toEqual([
      { field: 'name', terms: ['creat', 'issu'], related: [], prefixes: [] },
      { field: 'server', terms: ['github'], related: [], prefixes: [] },
      {
        field: 'description',
        // "GitHub" is split as an identifier ("git hub"), so only "issu" is there.
        terms: ['issu'],
        related: expect.any(Array),
        prefixes: [],
      },
    ]);
  });

  it('says when the thesaurus or a prefix made the match, and when the query named the tool', () => {
    const viaThesaurus = explainMatch('make a ticket', doc);
    expect(viaThesaurus.fields.flatMap((f) => f.terms)).toEqual([]);
    expect(viaThesaurus.fields.some((f) => f.related.length > 0)).toBe(true);
    expect(explainMatch('reposit', doc).fields).toContainEqual({
      field: 'parameters',
      terms: [],
      related: [],
      prefixes: ['reposit'],
    });
    expect(explainMatch('github.create_issue', doc).exact).toBe(true);
    expect(explainMatch('weather forecast', doc).fields).toEqual([]);
  });
});
