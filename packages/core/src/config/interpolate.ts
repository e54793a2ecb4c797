import type { ConfigIssue } from './issues.js';

/** Where `${VAR}` values come from; `process.env` unless a caller passes its own. */
export type Environment = Readonly<Record<string, string | undefined>>;

const PLACEHOLDER = /\$\{([^}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Expands `${VAR}`, `${VAR:-default}` and VS Code's `${env:VAR}` in `text`. A variable that is
 * unset and has no default, and any other `${…}` form (VS Code's `${input:…}`,
 * `${workspaceFolder}`), is reported as an issue at `path`, naming the variable, never a value.
 */
export function interpolate(
  text: string,
  path: string,
  env: Environment,
  issues: ConfigIssue[],
): string {
  return text.replace(PLACEHOLDER, (whole, inner: string) => {
    const withDefault = /^([^:]*):-(.*)$/s.exec(inner);
    let name = withDefault ? (withDefault[1] ?? '') : inner;
    const fallback = withDefault ? withDefault[2] : undefined;
    if (name.startsWith('env:')) name = name.slice(4);
    if (!NAME.test(name)) {
      issues.push({
        path,
        message: `unsupported placeholder "${clip(whole)}": only \${VAR}, \${VAR:-default} and \${env:VAR} are expanded; set an environment variable instead`,
      });
      return whole;
    }
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    issues.push({
      path,
      message: `environment variable ${name} is not set; set it or write \${${name}:-default}`,
    });
    return whole;
  });
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
