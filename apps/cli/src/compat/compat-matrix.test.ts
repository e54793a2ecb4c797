import { describe, expect, it } from 'vitest';
import { CompatMatrix, type KnownFailure } from './compat-matrix-test-helpers.js';
import { compatServer } from './compat-test-helpers.js';

// The matrix's rules without starting a server: a listed failure must fail as listed, an unlisted
// one or a listed one that passes fails the suite, and the same outcomes render the same text.
const servers = [compatServer('a', 'time-mcp'), compatServer('b', '@wrtnlabs/calculator-mcp')];
const known: KnownFailure[] = [
  { server: 'b', check: 'call', error: /^ENOENT/, reason: 'b cannot find its folder.' },
];
const pass = () => undefined;
const fail = (message: string) => () => {
  throw new Error(message);
};

function filled(): CompatMatrix {
  const matrix = new CompatMatrix(servers, known, new Map([['a', [1, 2]]]));
  for (const check of ['ready', 'search', 'deepView'] as const) {
    matrix.run('a', check, pass);
    matrix.run('b', check, pass);
  }
  matrix.run('a', 'call', pass);
  matrix.run('b', 'call', fail('ENOENT: no folder'));
  matrix.recordResources([{ server: 'a', source: '`time-mcp` 1.0.6', resources: 1, templates: 0 }]);
  return matrix;
}

describe('the compatibility matrix', () => {
  it('records a listed failure as ✗ with its reason, and renders the same text every time', () => {
    const text = filled().render();
    expect(text).toBe(filled().render());
    expect(text).toContain('| a | `time-mcp` | 1.0.6 | 2 | ✓ | ✓ | ✓ | ✓ |');
    expect(text).toContain('| b | `@wrtnlabs/calculator-mcp` | 0.2.1 | — | ✓ | ✓ | ✓ | ✗ |');
    expect(text).toContain(
      '- **b** (`@wrtnlabs/calculator-mcp` 0.2.1), Real call: b cannot find its folder.',
    );
    expect(text).toContain('| a | `time-mcp` 1.0.6 | 1 | 0 |');
  });

  it('fails on an unlisted failure, a listed one that passes, and a listed one failing otherwise', () => {
    const matrix = new CompatMatrix(servers, known, new Map());
    expect(() => matrix.run('a', 'call', fail('boom'))).toThrow('boom');
    expect(() => matrix.run('b', 'call', pass)).toThrow(
      'b call passed but is listed as a known failure: unlist it',
    );
    expect(() => matrix.run('b', 'call', fail('timed out'))).toThrow(
      'b call failed otherwise than listed: timed out',
    );
  });

  it('is complete only when every server × check and the resources are recorded, and runEach names each surprise', () => {
    const matrix = new CompatMatrix(servers, known, new Map());
    matrix.runEach('ready', pass);
    expect(matrix.complete()).toBe(false);
    expect(filled().complete()).toBe(true);
    const withoutResources = new CompatMatrix(servers, known, new Map());
    for (const check of ['ready', 'search', 'deepView', 'call'] as const) {
      withoutResources.runEach(check, (id) => {
        if (check === 'call' && id === 'b') throw new Error('ENOENT: no folder');
      });
    }
    expect(withoutResources.complete()).toBe(false);
    withoutResources.recordResources([]);
    expect(withoutResources.complete()).toBe(true);
    expect(() =>
      matrix.runEach('search', (id) => {
        if (id === 'a') throw new Error('not found');
      }),
    ).toThrow(/'a: not found'/);
  });
});
