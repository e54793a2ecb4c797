import { clip } from '../clip.js';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { ConfigError } from '../errors.js';
import { SERVER_ID_PATTERN } from '../tool-id.js';
import { interpolate, type Environment, type PlaceholderValues } from './interpolate.js';
import { describeIssues, formatPath, type ConfigIssue } from './issues.js';
import { configError, serverConfigSchema, type ServerConfig } from './server-config.js';

/** Which file format a config was read as. */
export type ConfigFileFormat = 'mcpServers' | 'vscode';

/** A server of a file that was left out of a partial import, and why. */
export interface RejectedServer {
  /** The server's key in the file, as written (it may be the reason it was rejected). */
  readonly id: string;
  /** Every problem found in this server's entry, with paths from the file's root. */
  readonly issues: readonly ConfigIssue[];
}

/** The servers of one config file, validated, in file order. */
export interface ServerConfigFile {
  /** `mcpServers` (Claude Desktop, Cursor, Claude Code) or `vscode` (a `servers` key). */
  readonly format: ConfigFileFormat;
  /** The valid servers, in the canonical shape with defaults filled and placeholders expanded. */
  readonly servers: readonly ServerConfig[];
  /** Keys other clients use (`autoApprove`, `timeout`, …) that were ignored, by path. */
  readonly ignored: readonly string[];
  /** With `partial`: the servers left out and why; otherwise always empty. */
  readonly rejected: readonly RejectedServer[];
}

/** Options of {@link parseServerConfigFile}. */
export interface ParseConfigFileOptions extends PlaceholderValues {
  /** Values for `${VAR}`; default `process.env`. */
  readonly env?: Environment;
  /** Named in error messages, for example the file path. */
  readonly source?: string;
  /**
   * Return the valid servers and list the others in `rejected`, instead of refusing the whole
   * file for one bad server. A file that is not a config file at all is still refused.
   */
  readonly partial?: boolean;
}

/** An input a VS Code file declares (`inputs`) or uses (`${input:id}`). */
export interface ConfigInput {
  /** The `id` in `${input:id}`; pass its value under `inputs[id]` of the parse options. */
  readonly id: string;
  /** The prompt the file gives for it, to show the person asked; `undefined` when undeclared. */
  readonly description: string | undefined;
  /** Typed without echo (`"password": true`). */
  readonly password: boolean;
}

/**
 * Reads the `mcpServers` file of Claude Desktop, Cursor and Claude Code, or the `servers`
 * file of VS Code (`.mcp.json` / `mcp.json`, with `type`), given as JSON text (comments and
 * trailing commas allowed, as VS Code writes them) or a parsed value. Expands `${ENV}`, VS
 * Code's workspace variables and inputs (see `interpolate`), validates every server, and
 * throws one {@link ConfigError} listing every bad path, so nothing half-valid is ever returned
 * (with `partial`, the bad servers are listed in `rejected` instead).
 *
 * @throws ConfigError (`CONFIG_INVALID`) when the text is not JSON, the document has neither
 *   `mcpServers` nor `servers`, or (without `partial`) any server is invalid; `details.issues`
 *   lists every bad path, and messages never echo a value.
 * @example
 * ```ts
 * const text = await readFile('.cursor/mcp.json', 'utf8');
 * const { servers, ignored } = parseServerConfigFile(text, { source: '.cursor/mcp.json' });
 * // ${GITHUB_TOKEN} in an entry's env was read from process.env
 * ```
 */
export function parseServerConfigFile(
  input: unknown,
  options: ParseConfigFileOptions = {},
): ServerConfigFile {
  const source = options.source ?? 'config';
  const document = typeof input === 'string' ? parseJson(input, source) : input;
  if (!isRecord(document)) {
    throw configError(`Invalid ${source}`, [
      { path: '(root)', message: 'must be a JSON object with "mcpServers" or "servers"' },
    ]);
  }
  const format: ConfigFileFormat | undefined =
    'mcpServers' in document ? 'mcpServers' : 'servers' in document ? 'vscode' : undefined;
  if (format === undefined) {
    throw configError(`Invalid ${source}`, [
      {
        path: '(root)',
        message:
          'has neither "mcpServers" (Claude Desktop, Cursor, Claude Code) nor "servers" (VS Code)',
      },
    ]);
  }
  const key = format === 'mcpServers' ? 'mcpServers' : 'servers';
  const entries = document[key];
  if (!isRecord(entries)) {
    throw configError(`Invalid ${source}`, [
      { path: key, message: 'must be an object mapping server ids to definitions' },
    ]);
  }

  const env = options.env ?? process.env;
  const issues: ConfigIssue[] = [];
  const servers: ServerConfig[] = [];
  const ignored: string[] = [];
  const rejected: RejectedServer[] = [];
  for (const [id, raw] of Object.entries(entries)) {
    const own: ConfigIssue[] = [];
    const server = parseEntry(id, raw, [key, id], env, options, own, ignored);
    if (server !== undefined && own.length === 0) servers.push(server);
    if (own.length > 0) rejected.push({ id, issues: own });
    issues.push(...own);
  }
  if (issues.length > 0 && options.partial !== true) throw configError(`Invalid ${source}`, issues);
  return { format, servers, ignored, rejected };
}

/**
 * Validates one entry in the shape of an `mcpServers` (or VS Code `servers`) value, with its id
 * beside the fields: `{id, command, args, env}` or `{id, url, headers, type?}`, the transport
 * inferred as an import does. The canonical shape (with `transport`) is accepted too.
 * Placeholders are expanded from `options.env` only (default none, not `process.env`), so a
 * definition sent over an API cannot read the host's environment.
 *
 * @throws ConfigError (`CONFIG_INVALID`) listing every bad path in `details.issues`.
 * @example
 * ```ts
 * parseServerEntry({ id: 'docs', url: 'https://mcp.example.com/mcp' });
 * // { id: 'docs', transport: 'auto', url: …, headers: {}, enabled: true }
 * ```
 */
export function parseServerEntry(
  input: unknown,
  options: PlaceholderValues & { readonly env?: Environment } = {},
): ServerConfig {
  if (isRecord(input) && 'transport' in input) {
    const parsed = serverConfigSchema.safeParse(input);
    if (parsed.success) return parsed.data;
    throw configError('Invalid server', describeIssues(parsed.error.issues));
  }
  const issues: ConfigIssue[] = [];
  const { id, ...fields } = isRecord(input) ? input : {};
  if (typeof id !== 'string') {
    throw configError('Invalid server', [
      {
        path: 'id',
        message: isRecord(input)
          ? 'is missing: give the server an id beside its command or url'
          : 'the server must be a JSON object',
      },
    ]);
  }
  const server = parseEntry(id, fields, [], options.env ?? {}, options, issues, []);
  if (server === undefined || issues.length > 0) throw configError('Invalid server', issues);
  return server;
}

/**
 * The inputs a VS Code file uses (`${input:id}`), in order, each once, with the prompt its
 * `inputs` declares for it: what to ask a person for before {@link parseServerConfigFile}.
 * Declared inputs no value uses are left out.
 *
 * @throws ConfigError (`CONFIG_INVALID`) when `input` is text that is not JSON.
 */
export function configInputs(input: unknown): ConfigInput[] {
  const document = typeof input === 'string' ? parseJson(input, 'config') : input;
  const found = new Map<string, ConfigInput>();
  const declared = isRecord(document) && Array.isArray(document.inputs) ? document.inputs : [];
  for (const entry of declared) {
    if (!isRecord(entry) || typeof entry.id !== 'string') continue;
    found.set(entry.id, {
      id: entry.id,
      description: typeof entry.description === 'string' ? entry.description : undefined,
      password: entry.password === true,
    });
  }
  // Only the inputs some value uses are asked for, declared or not.
  const text = JSON.stringify(isRecord(document) ? { ...document, inputs: [] } : document) ?? '';
  const used = new Set([...text.matchAll(/\$\{input:([^}]*)\}/g)].map((match) => match[1] ?? ''));
  return [...used].map((id) => found.get(id) ?? { id, description: undefined, password: false });
}

// One entry of a file (or of an API request): its id, its fields, placeholders expanded.
function parseEntry(
  id: string,
  raw: unknown,
  path: readonly string[],
  env: Environment,
  values: PlaceholderValues,
  issues: ConfigIssue[],
  ignored: string[],
): ServerConfig | undefined {
  const at = path.length === 0 ? ['id'] : path;
  if (!SERVER_ID_PATTERN.test(id)) {
    issues.push({
      path: formatPath(at),
      message: `"${clip(id, 60)}" is not a valid server id (1-64 lowercase letters, digits, "_" or "-", no dots); rename ${path.length === 0 ? 'it' : 'the key'}, for example to "${suggestId(id)}"`,
    });
    return undefined;
  }
  if (!isRecord(raw)) {
    issues.push({ path: formatPath(at), message: 'must be an object' });
    return undefined;
  }
  const canonical = toCanonical(id, raw, path, env, values, issues, ignored);
  if (canonical === undefined) return undefined;
  const parsed = serverConfigSchema.safeParse(canonical);
  if (parsed.success) return parsed.data;
  issues.push(...describeIssues(parsed.error.issues, path).map(renamePath(path)));
  return undefined;
}

// What a server entry may say that we use; other clients' extras are ignored and reported.
const KNOWN_KEYS = new Set([
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'headers',
  'name',
  'description',
  'timeoutMs',
]);

// Maps one file entry onto our canonical server shape, expanding placeholders on the way.
function toCanonical(
  id: string,
  raw: Record<string, unknown>,
  path: readonly string[],
  env: Environment,
  values: PlaceholderValues,
  issues: ConfigIssue[],
  ignored: string[],
): Record<string, unknown> | undefined {
  const { type, disabled, enabled, envFile, ...fields } = raw;
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (KNOWN_KEYS.has(key)) rest[key] = value;
    else ignored.push(formatPath([...path, key]));
  }
  if (envFile !== undefined) {
    issues.push({
      path: formatPath([...path, 'envFile']),
      message: 'is not supported; list the variables under "env" instead',
    });
    return undefined;
  }
  const expand = (value: unknown, at: (string | number)[]): unknown => {
    if (typeof value === 'string') return interpolate(value, formatPath(at), env, issues, values);
    if (Array.isArray(value)) return value.map((item, index) => expand(item, [...at, index]));
    if (isRecord(value)) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v, [...at, k])]));
    }
    return value;
  };
  const expanded = Object.fromEntries(
    Object.entries(rest).map(([k, v]) => [k, expand(v, [...path, k])]),
  );
  const transport = transportOf(type, expanded, path, issues);
  if (transport === undefined) return undefined;
  const isEnabled = disabled === true ? false : enabled === false ? false : true;
  return { ...expanded, id, enabled: isEnabled, transport };
}

function transportOf(
  type: unknown,
  entry: Record<string, unknown>,
  path: readonly string[],
  issues: ConfigIssue[],
): string | undefined {
  switch (type) {
    case undefined:
      if ('command' in entry) return 'stdio';
      if ('url' in entry) return 'auto';
      issues.push({ path: formatPath(path), message: 'needs "command" (stdio) or "url" (remote)' });
      return undefined;
    case 'stdio':
      return 'stdio';
    case 'http':
    case 'streamable-http':
    case 'streamableHttp':
      return 'streamable-http';
    case 'sse':
      return 'sse';
    default:
      issues.push({
        path: formatPath([...path, 'type']),
        message: 'unknown transport; use "stdio", "http" (streamable HTTP) or "sse"',
      });
      return undefined;
  }
}

// zod reports our canonical field names; the file's author wrote `type`, not `transport`.
function renamePath(prefix: readonly string[]): (issue: ConfigIssue) => ConfigIssue {
  const transportPath = formatPath([...prefix, 'transport']);
  return (issue) =>
    issue.path === transportPath ? { ...issue, path: formatPath([...prefix, 'type']) } : issue;
}

// JSON with comments and trailing commas, as VS Code's mcp.json is written.
function parseJson(text: string, source: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, {
    allowTrailingComma: true,
    disallowComments: false,
  });
  const first = errors[0];
  if (first === undefined) return value;
  const before = text.slice(0, first.offset);
  const line = before.split('\n').length;
  const column = first.offset - before.lastIndexOf('\n');
  throw new ConfigError(
    `Invalid ${source}: not valid JSON (${printParseErrorCode(first.error)} at line ${line}, column ${column}; comments and trailing commas are accepted).`,
    { details: { issues: [{ path: '(root)', message: 'not valid JSON' }] } },
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function suggestId(id: string): string {
  const slug = id
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|-+$/g, '')
    .slice(0, 64);
  return slug === '' ? 'server-1' : slug;
}
