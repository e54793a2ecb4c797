import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readReachabilitySet, scoreRequest, summarizeOutcomes } from './reachability-set.js';

const folder = mkdtempSync(join(tmpdir(), 'mcp-agent-reachability-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function setFile(lines: string[]): string {
  const file = join(folder, `set-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

describe('readReachabilitySet', () => {
  it('reads each labelled request with its line', () => {
    const file = setFile([
      JSON.stringify({
        target: 'server:files',
        request: 'make a folder',
        needs: [['files.mkdir']],
      }),
      '',
      JSON.stringify({ target: 'none', request: 'order a pizza', needs: [] }),
    ]);
    expect(readReachabilitySet(file)).toEqual([
      { line: 1, target: 'server:files', request: 'make a folder', needs: [['files.mkdir']] },
      { line: 3, target: 'none', request: 'order a pizza', needs: [] },
    ]);
  });

  it('names the line and the field that is wrong', () => {
    expect(() => readReachabilitySet(setFile(['{oops']))).toThrow(/:1 is not JSON/);
    expect(() =>
      readReachabilitySet(setFile([JSON.stringify({ target: 'tool:x', request: 'a', needs: [] })])),
    ).toThrow(/:1: "target" must be/);
    expect(() =>
      readReachabilitySet(
        setFile([JSON.stringify({ target: 'none', request: 'a', needs: [['no-server-id']] })]),
      ),
    ).toThrow(/"needs" must be a list of steps/);
    expect(() =>
      readReachabilitySet(setFile([JSON.stringify({ target: 'none', request: ' ', needs: [] })])),
    ).toThrow(/"request" must be/);
  });
});

describe('scoreRequest', () => {
  const all = () => true;

  it('finds a step in the first five or on one of the first two servers named', () => {
    const found = {
      top5: ['git.log', 'git.show'],
      servers: ['git', 'files', 'sqlite'],
      noGoodMatch: false,
    };
    expect(scoreRequest([['git.show', 'git.diff']], found, all)).toMatchObject({
      kind: 'servable',
      top5: true,
      twoCalls: true,
      browsed: [],
    });
    expect(scoreRequest([['git.log'], ['files.write']], found, all)).toMatchObject({
      top5: false,
      twoCalls: true,
      browsed: ['files'],
    });
    // The third server named is past the two a model browses.
    expect(scoreRequest([['sqlite.query']], found, all)).toMatchObject({
      top5: false,
      twoCalls: false,
    });
  });

  it('tells requests nothing serves from those whose tools are not connected', () => {
    const found = { top5: [], servers: [], noGoodMatch: true };
    expect(scoreRequest([], found, all)).toEqual({ kind: 'none', noGoodMatch: true });
    expect(scoreRequest([['calc.sub']], found, (id) => !id.startsWith('calc.'))).toEqual({
      kind: 'unservable',
      noGoodMatch: true,
    });
    // An alternative that is not connected is no alternative.
    expect(
      scoreRequest(
        [['calc.sub', 'runner.run']],
        { top5: ['runner.run'], servers: ['runner'], noGoodMatch: false },
        (id) => id.startsWith('calc.'),
      ),
    ).toMatchObject({ kind: 'servable', top5: false, twoCalls: false });
  });
});

describe('summarizeOutcomes', () => {
  it('shares top five, two calls and "no good match" over the right requests', () => {
    const summary = summarizeOutcomes([
      { kind: 'servable', noGoodMatch: false, top5: true, twoCalls: true, browsed: [] },
      { kind: 'servable', noGoodMatch: true, top5: false, twoCalls: true, browsed: ['a'] },
      { kind: 'servable', noGoodMatch: false, top5: false, twoCalls: false, browsed: [] },
      { kind: 'none', noGoodMatch: true },
      { kind: 'none', noGoodMatch: false },
      { kind: 'unservable', noGoodMatch: false },
    ]);
    expect(summary).toEqual({
      servable: 3,
      unservable: 1,
      none: 2,
      top5: 0.333,
      two_calls: 0.667,
      false_no_match: 0.333,
      true_no_match: 0.5,
    });
    expect(summarizeOutcomes([])).toMatchObject({ top5: null, true_no_match: null });
  });
});
