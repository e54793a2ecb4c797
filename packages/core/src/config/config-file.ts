import { ConfigError } from '../errors.js';
import { PROVIDER_ID_PATTERN } from '../tool-id.js';
import { interpolate, type Environment } from './interpolate.js';
import { describeIssues, formatPath, type ConfigIssue } from './issues.js';
import { configError, serverConfigSchema, type ServerConfig } from './server-config.js';

/** Which file format a config was read as. */
export type ConfigFileFormat = 'mcpServers' | 'vscode';

/** The servers of one config file, validated, in file order. */
export interface ServerConfigFile {
  readonly format: ConfigFileFormat;
  readonly servers: readonly ServerConfig[];
  /** Keys other clients use (`autoApprove`, `timeout`, …) that were ignored, by path. */
  readonly ignored: readonly string[];
}

/** Options of {@link parseServerConfigFile}. */
export interface ParseConfigFileOptions {
  /** Values for `${VAR}`; default `process.env`. */
  readonly env?: Environment;
  /** Named in error messages, for example the file path. */
  readonly source?: string;
}

/**
 * Reads the `mcpServers` file of Claude Desktop, Cursor and Claude Code, or the `servers`
 * file of VS Code (`.mcp.json` / `mcp.json`, with `type`), given as JSON text or a parsed
 * value. Expands `${ENV}` placeholders, validates every server, and throws one
 * {@link ConfigError} listing every bad path, so nothing half-valid is ever returned.
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
  for (const [id, raw] of Object.entries(entries)) {
    const path = [key, id];
    if (!PROVIDER_ID_PATTERN.test(id)) {
      issues.push({
        path: formatPath(path),
        message: `"${clip(id)}" is not a valid server id (1-64 lowercase letters, digits, "_" or "-", no dots); rename the key, for example to "${suggestId(id)}"`,
      });
      continue;
    }
    if (!isRecord(raw)) {
      issues.push({ path: formatPath(path), message: 'must be an object' });
      continue;
    }
    const canonical = toCanonical(id, raw, path, env, issues, ignored);
    if (canonical === undefined) continue;
    const parsed = serverConfigSchema.safeParse(canonical);
    if (parsed.success) servers.push(parsed.data);
    else issues.push(...describeIssues(parsed.error.issues, path).map(renamePath(path)));
  }
  if (issues.length > 0) throw configError(`Invalid ${source}`, issues);
  return { format, servers, ignored };
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
]);

// Maps one file entry onto our canonical server shape, expanding placeholders on the way.
function toCanonical(
  id: string,
  raw: Record<string, unknown>,
  path: readonly string[],
  env: Environment,
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
    if (typeof value === 'string') return interpolate(value, formatPath(at), env, issues);
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

function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      `Invalid ${source}: not valid JSON (${(error as Error).message}). Check for trailing commas and comments.`,
      { details: { issues: [{ path: '(root)', message: 'not valid JSON' }] } },
    );
  }
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

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
