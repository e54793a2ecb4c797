import { describe, expect, it } from 'vitest';
import { bracketDepth, stripTypeScript, stripperWorks } from './typescript-stripping.js';

describe('bracketDepth', () => {
  it('counts (, [, { and template substitutions, and stops once past the maximum', () => {
    expect(bracketDepth('f(a[0], { b: [1] })', 100)).toBe(3);
    expect(bracketDepth('`a ${ f(`b ${ [x] }`) } c`', 100)).toBe(4);
    expect(bracketDepth(`${'('.repeat(10_000)}1${')'.repeat(10_000)}`, 256)).toBe(257);
    expect(bracketDepth(')))] } ((', 100)).toBe(2);
  });

  it('ignores brackets in strings, template text and comments', () => {
    const deep = '('.repeat(1_000);
    const code = [
      `const a = "${deep}";`,
      `const b = '${deep}\\'';`,
      `const c = \`${deep} \\\${ no }\`;`,
      `// ${deep}`,
      `/* ${deep} */`,
      'return [a, b, c];',
    ].join('\n');
    expect(bracketDepth(code, 256)).toBe(1);
  });
});

describe('stripTypeScript', () => {
  it('strips a body with a top-level return, keeping every offset', () => {
    const code = 'const n: number = 1;\nreturn n as number;';
    expect(stripTypeScript(code, 256)).toEqual({
      ok: true,
      code: 'const n         = 1;\nreturn n          ;',
    });
  });

  it("reports a syntax error as the caller's, keeping the worker, and refuses deep nesting before stripping", () => {
    expect(stripTypeScript('enum E { A }\nreturn E.A;', 256)).toMatchObject({
      ok: false,
      kind: 'syntax',
      message: expect.stringMatching(/^TypeScript could not be stripped: TypeScript enum/),
      retire: false,
    });
    expect(stripTypeScript(`return ${'['.repeat(300)}${']'.repeat(300)};`, 256)).toMatchObject({
      ok: false,
      kind: 'limit',
      retire: false,
    });
    expect(stripperWorks()).toBe(true);
  });
});
