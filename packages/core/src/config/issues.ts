import type { z } from 'zod';

/** One validation problem: where (a dotted path) and what, never the offending value. */
export interface ConfigIssue {
  /** Where, as {@link formatPath} writes it (`mcpServers.github.args[0]`), or `(root)`. */
  readonly path: string;
  /** What is wrong and, where we know it, how to fix it; never the value itself. */
  readonly message: string;
}

/**
 * Turns zod issues into {@link ConfigIssue}s under `prefix`. zod's messages name the expected
 * type and never the received value, which matters because configs carry secrets.
 */
export function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly (string | number)[] = [],
): ConfigIssue[] {
  return issues.flatMap((issue) => {
    if (
      issue.code === 'invalid_union' &&
      issue.errors.length > 0 &&
      issue.discriminator === undefined
    ) {
      // Report the branch that got furthest rather than "invalid input" for the whole union.
      const best = [...issue.errors].sort((a, b) => depth(b) - depth(a))[0] ?? [];
      return describeIssues(best, [...prefix, ...issue.path.map(toKey)]);
    }
    if (issue.code === 'invalid_key' && issue.issues.length > 0) {
      // A bad record key: its own issues carry the message we wrote for keys.
      const at = [...prefix, ...issue.path.map(toKey)];
      return issue.issues.map((inner) => ({ path: formatPath(at), message: inner.message }));
    }
    return [{ path: formatPath([...prefix, ...issue.path.map(toKey)]), message: issue.message }];
  });
}

function depth(issues: readonly z.core.$ZodIssue[]): number {
  return Math.max(0, ...issues.map((i) => i.path.length));
}

function toKey(key: PropertyKey): string | number {
  return typeof key === 'number' ? key : String(key);
}

/** `['mcpServers', 'github', 'args', 0]` → `mcpServers.github.args[0]`. */
export function formatPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out === '' ? '(root)' : out;
}
