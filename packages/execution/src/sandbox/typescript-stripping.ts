// TypeScript to JavaScript for the sandbox worker (never the server process, SBX-31). Node's
// stripper runs in WebAssembly: code nested too deep overflows it, and the failure leaves it
// broken for every later call in the process. So nesting is bounded before stripping, and a
// worker whose stripper failed in any other way than a syntax error is retired.
import { stripTypeScriptTypes } from 'node:module';

/** What {@link stripTypeScript} made of the code. */
export type StripOutcome =
  | { readonly ok: true; readonly code: string }
  | {
      readonly ok: false;
      readonly kind: 'syntax' | 'limit';
      readonly message: string;
      /** The stripper may be broken: the worker must not strip again. */
      readonly retire: boolean;
    };

// Syntax errors the stripper reports by design; anything else is a failure of the stripper.
const SYNTAX_CODES = new Set([
  'ERR_INVALID_TYPESCRIPT_SYNTAX',
  'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX',
]);

// Stripped inside a function, so a top-level `return` parses; strip mode keeps every offset, so
// the body is cut back out exactly.
const PREFIX = 'async function __sandbox_body__() {\n';

/**
 * The JavaScript of an async function body written in TypeScript, or why there is none: nesting
 * past `maxNesting` is refused before the stripper sees it, a syntax error is the caller's, and
 * any other failure retires the worker (a canary strip tells whether the stripper survived).
 */
export function stripTypeScript(code: string, maxNesting: number): StripOutcome {
  const depth = bracketDepth(code, maxNesting);
  if (depth > maxNesting) {
    return {
      ok: false,
      kind: 'limit',
      message: `the TypeScript nests brackets more than ${maxNesting} levels deep (sandbox limit maxTypeScriptNesting): flatten it, or send JavaScript`,
      retire: false,
    };
  }
  try {
    const stripped = stripTypeScriptTypes(`${PREFIX}${code}\n}`, { mode: 'strip' });
    return { ok: true, code: stripped.slice(PREFIX.length, stripped.length - 2) };
  } catch (error) {
    const syntax = SYNTAX_CODES.has(String((error as { code?: unknown }).code));
    const text =
      String((error as Error).message)
        .split('\n')[0]
        ?.slice(0, 500) ?? '';
    return {
      ok: false,
      kind: 'syntax',
      message: syntax
        ? `TypeScript could not be stripped: ${text}`
        : `TypeScript could not be stripped: the stripper failed on this code (${text}); simplify it, or send JavaScript`,
      retire: !syntax || !stripperWorks(),
    };
  }
}

/** True when the stripper still turns a one-line program into the expected JavaScript. */
export function stripperWorks(): boolean {
  try {
    return stripTypeScriptTypes('let a: number = 1', { mode: 'strip' }) === 'let a         = 1';
  } catch {
    return false;
  }
}

/**
 * How deep `(`, `[`, `{` and template `${` nest in `code`, outside strings, template text and
 * comments; counting stops as soon as it passes `max`. Brackets in a regular expression count
 * (telling a regex from a division needs a parser), which can only overstate the depth.
 */
export function bracketDepth(code: string, max: number): number {
  let depth = 0;
  let deepest = 0;
  // The depth at which each open template substitution began, innermost last.
  const substitutions: number[] = [];
  let i = 0;
  const skipTemplateText = (): void => {
    // From just after a backtick or a substitution's `}`: to the closing backtick, or into `${`.
    while (i < code.length) {
      const c = code[i];
      if (c === '\\') i += 2;
      else if (c === '`') {
        i += 1;
        return;
      } else if (c === '$' && code[i + 1] === '{') {
        i += 2;
        depth += 1;
        substitutions.push(depth);
        return;
      } else i += 1;
    }
  };
  while (i < code.length && deepest <= max) {
    const c = code[i];
    const next = code[i + 1];
    if (c === '/' && next === '/') {
      const end = code.indexOf('\n', i);
      i = end < 0 ? code.length : end + 1;
    } else if (c === '/' && next === '*') {
      const end = code.indexOf('*/', i + 2);
      i = end < 0 ? code.length : end + 2;
    } else if (c === '"' || c === "'") {
      i += 1;
      while (i < code.length && code[i] !== c && code[i] !== '\n') i += code[i] === '\\' ? 2 : 1;
      i += 1;
    } else if (c === '`') {
      i += 1;
      skipTemplateText();
    } else if (c === '(' || c === '[' || c === '{') {
      depth += 1;
      i += 1;
    } else if (c === '}' && substitutions.at(-1) === depth) {
      substitutions.pop();
      depth -= 1;
      i += 1;
      skipTemplateText();
    } else if (c === ')' || c === ']' || c === '}') {
      depth = Math.max(0, depth - 1);
      i += 1;
    } else i += 1;
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}
