import { describe, expect, it } from 'vitest';
import { DEFAULT_RANKING } from './ranking-options.js';
import type { SearchDocument } from './search-document.js';
import { ToolSearchIndex } from './tool-search-index.js';

const doc = (server: string, name: string, description: string): SearchDocument => ({
  id: `${server}.${name}`,
  server,
  name,
  description,
  parameters: [],
});

// Developer tools and one everyday tool, as a user's connected servers might be.
function catalog(ranking: ConstructorParameters<typeof ToolSearchIndex>[0] = {}): ToolSearchIndex {
  const index = new ToolSearchIndex(ranking);
  index.setServer('git', [
    doc('git', 'git_checkout', 'Switch branches or restore working tree files'),
    doc('git', 'git_log', 'Show the commit history of the repository'),
    doc('git', 'git_add', 'Add file contents to the staging area'),
  ]);
  index.setServer('files', [
    doc('files', 'read_file', 'Read the complete contents of a file from the file system'),
    doc('files', 'list_directory', 'List the files and folders inside a directory'),
  ]);
  index.setServer('money', [
    doc('money', 'convert_currency', 'Convert an amount of money from one currency to another'),
  ]);
  return index;
}

const best = (index: ToolSearchIndex, query: string) => index.search(query, { limit: 5 })[0];

describe('query coverage: the relevance that decides "no good match"', () => {
  it('a long request is not diluted by its context and values: the tool that answers its need is a good match', () => {
    const request =
      'We are flying to Lisbon with the kids next month and I keep a small spreadsheet of the trip budget; ' +
      'please convert the money, 250 pounds sterling, into the local currency so I know what to write down';
    const capped = best(catalog(), request);
    expect(capped?.id).toBe('money.convert_currency');
    expect(capped!.relevance).toBeGreaterThanOrEqual(DEFAULT_RANKING.relevance.goodMatch);
    expect(capped!.relevance).toBeLessThanOrEqual(1);
    // Counting every word of the request (the rule before the cap), the same tool at the same
    // rank falls under the line: what lifts it is the cap, not a change of ranking.
    const uncapped = best(
      catalog({ relevance: { ...DEFAULT_RANKING.relevance, informationCap: Infinity } }),
      request,
    );
    expect(uncapped?.id).toBe('money.convert_currency');
    expect(uncapped!.relevance).toBeLessThan(DEFAULT_RANKING.relevance.goodMatch);
  });

  it('a short request nothing connected serves is "no good match", even when one word reaches a tool through the thesaurus (order ↔ checkout)', () => {
    const index = catalog();
    const pizza = best(index, 'order a pizza');
    // The thesaurus still ranks git_checkout first, but a match only through a related word of
    // another sense is weak evidence: under the line.
    expect(pizza?.id).toBe('git.git_checkout');
    expect(pizza!.relevance).toBeLessThan(index.goodMatch);
    for (const query of ['book a flight to Denver', 'play some jazz music', 'horoscope for today'])
      expect(best(index, query)?.relevance ?? 0).toBeLessThan(index.goodMatch);
    // Short requests in the user's words for what is connected stay good matches.
    for (const [query, id] of [
      ['show me the commit history', 'git.git_log'],
      ['what is inside this folder', 'files.list_directory'],
      ['how much is my money worth in another currency', 'money.convert_currency'],
    ] as const) {
      const hit = best(index, query);
      expect(hit?.id).toBe(id);
      expect(hit!.relevance).toBeGreaterThanOrEqual(index.goodMatch);
    }
  });
});
