import { lstatSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureTenantFolder, type TenantFolder } from './tenant-folder.js';

/**
 * What values an allow-listed stdio server's environment variable may take. Every field given
 * applies; with none, any value goes, except that one naming a path must stay in the tenant's
 * own folder.
 */
export interface EnvValueRule {
  /**
   * The only value: the server is launched with it whether or not the tenant gave it (a tenant
   * may leave it out; another value is refused). `{tenantFolder}` stands for the tenant's folder.
   */
  readonly value?: string;
  /** A regular expression the whole value must match. */
  readonly pattern?: string;
  /**
   * `tenant`: the value is a file path inside the tenant's own folder; a relative one is taken
   * from that folder, and the server gets it absolute.
   */
  readonly path?: 'tenant';
}

/** The environment variables of an allowlist entry: names only (no rule), or names with rules. */
export type AllowedEnv = readonly string[] | Readonly<Record<string, EnvValueRule>>;

/** Stands for the tenant's folder in {@link EnvValueRule.value}. */
export const TENANT_FOLDER_PLACEHOLDER = '{tenantFolder}';

/** The rule of each allowed name (an empty rule for a bare name). */
export function envRules(env: AllowedEnv | undefined): ReadonlyMap<string, EnvValueRule> {
  if (env === undefined) return new Map();
  if (Array.isArray(env)) return new Map((env as readonly string[]).map((name) => [name, {}]));
  return new Map(Object.entries(env as Readonly<Record<string, EnvValueRule>>));
}

/**
 * Why the tenant's `value` for `name` breaks `rule`, or `undefined` when it is allowed. A value
 * that names a path (absolute, `~`, `./`, `../`, a `/` inside, a `file:` URL) must stay in the
 * tenant's folder, symbolic links resolved, unless the operator's pattern allows it; even then
 * nothing else under the registry home (the database, the key file, other tenants' folders).
 */
export function envValueProblem(
  name: string,
  value: string,
  rule: EnvValueRule,
  folder: TenantFolder | undefined,
): string | undefined {
  if (rule.value !== undefined) {
    const fixed = folder === undefined ? rule.value : expandFixed(rule.value, folder);
    return value === fixed ? undefined : `${name} is set by this service; leave it out`;
  }
  if (rule.pattern !== undefined && !new RegExp(`^(?:${rule.pattern})$`, 'u').test(value))
    return `the value of ${name} does not have the form this service allows (${rule.pattern})`;
  const path = rule.path === 'tenant' ? resolveFrom(folder, value) : pathIn(value, folder);
  if (path === undefined) return undefined;
  if (folder === undefined)
    return `the value of ${name} names a path, and there is no user folder to check it against`;
  const own = ensureTenantFolder(folder);
  const real = realPath(path);
  if (real !== undefined && isWithin(real, own)) return undefined;
  if (rule.pattern !== undefined && real !== undefined && !isWithin(real, realPath(folder.home)!))
    return undefined;
  return `the value of ${name} names a path outside this user's own folder; give a path relative to that folder`;
}

/** The environment a checked server is launched with: fixed values set, `path` values absolute. */
export function launchEnvironment(
  env: Readonly<Record<string, string>>,
  rules: ReadonlyMap<string, EnvValueRule>,
  folder: TenantFolder,
): Record<string, string> {
  const launched = { ...env };
  for (const [name, rule] of rules) {
    const given = launched[name];
    if (rule.value !== undefined) launched[name] = expandFixed(rule.value, folder);
    else if (rule.path === 'tenant' && given !== undefined)
      launched[name] = resolve(ensureTenantFolder(folder), given);
  }
  return launched;
}

function expandFixed(value: string, folder: TenantFolder): string {
  return value.split(TENANT_FOLDER_PLACEHOLDER).join(folder.path);
}

// The absolute path a value names, or undefined when it is not a path (a word, a token, a URL).
function pathIn(value: string, folder: TenantFolder | undefined): string | undefined {
  if (/^file:/i.test(value)) {
    try {
      return fileURLToPath(value);
    } catch {
      return resolveFrom(folder, value);
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return undefined;
  if (value.startsWith('~') || value.startsWith('.') || isAbsolute(value) || /[\\/]/.test(value))
    return resolveFrom(folder, value);
  return undefined;
}

// Relative paths start in the tenant's folder (the server's working directory); `~` is the
// host user's home, as a shell or server would expand it.
function resolveFrom(folder: TenantFolder | undefined, value: string): string {
  if (value === '~' || value.startsWith('~/')) return join(homedir(), value.slice(1));
  return resolve(folder?.path ?? '/', value);
}

// The path with the symbolic links of its existing part resolved; undefined when a link in it
// points nowhere (a dangling link would let the server create a file wherever it points).
function realPath(path: string): string | undefined {
  const missing: string[] = [];
  for (let current = path; ; current = dirname(current)) {
    try {
      return join(realpathSync(current), ...missing);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
      if (isLink(current) || dirname(current) === current) return undefined;
      missing.unshift(basename(current));
    }
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function isWithin(path: string, folder: string): boolean {
  const rest = relative(folder, path);
  return rest === '' || (rest !== '..' && !rest.startsWith(`..${sep}`) && !isAbsolute(rest));
}
