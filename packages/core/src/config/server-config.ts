import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { SERVER_ID_PATTERN } from '../tool-id.js';
import { describeIssues, type ConfigIssue } from './issues.js';

const serverId = z
  .string()
  .regex(
    SERVER_ID_PATTERN,
    'must be 1-64 lowercase letters, digits, "_" or "-", starting with a letter or digit, with no dots',
  );

const envName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'is not a valid environment variable name');
const headerName = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'is not a valid HTTP header name');
// CR or LF in a header value would let a config smuggle extra headers.
const headerValue = z.string().regex(/^[^\r\n\0]*$/, 'must not contain line breaks or NUL');

const common = {
  /**
   * The server's id, unique per tenant and the prefix of its tool ids (`github.create_issue`):
   * 1-64 lowercase letters, digits, `_` or `-`, no dots (see {@link SERVER_ID_PATTERN}).
   */
  id: serverId,
  /** A display name for people (1-200 characters); the id is shown when there is none. */
  name: z.string().min(1).max(200).optional(),
  /** What the server is for (at most 2,000 characters), shown to the model in the inventory. */
  description: z.string().max(2_000).optional(),
  /** `false` keeps the definition but never connects or offers its tools; default `true`. */
  enabled: z.boolean().default(true),
  /**
   * How long one request may go without an answer or a progress notification, in ms; default the
   * pool's (60 s). Progress resets it; the pool's ceiling on a whole request still holds.
   */
  timeoutMs: z.number().int().min(1_000).max(3_600_000).optional(),
};

/** A server launched as a child process speaking MCP over stdin/stdout. */
export const stdioServerConfigSchema = z.strictObject({
  ...common,
  /** Launched as a child process speaking MCP over stdin/stdout. */
  transport: z.literal('stdio'),
  /** The program to run, found on `PATH` like a shell would; run without a shell. */
  command: z.string().trim().min(1, 'must name the program to run'),
  /** Its arguments, passed as they are (no shell, so no quoting or globbing); default none. */
  args: z.array(z.string()).default([]),
  /**
   * Variables set for the child, over the MCP SDK's minimal environment (`PATH`, `HOME`, …) and
   * those the operator passes on; the host's others are withheld. Stored encrypted, as they
   * usually hold tokens. Default none.
   */
  env: z.record(envName, z.string()).default({}),
  /** The child's working directory; default the host process's. */
  cwd: z.string().min(1).optional(),
});

const httpUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}, 'must be an absolute http:// or https:// URL');

/**
 * A remote server: `streamable-http`, legacy `sse`, or `auto` (streamable HTTP first, SSE as
 * the fallback, as Cursor and Claude Code do for a bare `url`).
 */
export const remoteServerConfigSchema = z.strictObject({
  ...common,
  /** `streamable-http`, legacy `sse`, or `auto`: streamable HTTP first, then SSE. */
  transport: z.enum(['streamable-http', 'sse', 'auto']),
  /** The server's absolute `http://` or `https://` endpoint. */
  url: httpUrl,
  /**
   * Headers sent with every request (an `Authorization` key, for example); stored encrypted and
   * never shown back, only their names. Default none.
   */
  headers: z.record(headerName, headerValue).default({}),
});

/** Any server definition, discriminated by `transport`. */
export const serverConfigSchema = z.discriminatedUnion('transport', [
  stdioServerConfigSchema,
  remoteServerConfigSchema,
]);

/** A validated stdio server definition. */
export type StdioServerConfig = z.output<typeof stdioServerConfigSchema>;
/** A validated remote server definition. */
export type RemoteServerConfig = z.output<typeof remoteServerConfigSchema>;
/** A validated server definition. */
export type ServerConfig = z.output<typeof serverConfigSchema>;
/** A server definition as written, before defaults. */
export type ServerConfigInput = z.input<typeof serverConfigSchema>;
/** The transports a server can use. */
export type ServerTransport = ServerConfig['transport'];

/**
 * Validates one server definition in the canonical shape (with `transport`) and fills its
 * defaults. Messages never echo values, which may be secrets. `path` prefixes each issue's path,
 * for a definition read from inside a larger document.
 *
 * @throws ConfigError (`CONFIG_INVALID`) listing every bad path in `details.issues`.
 * @example
 * ```ts
 * const server = parseServerConfig({ id: 'files', transport: 'stdio', command: 'npx',
 *   args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv/docs'] });
 * // server.enabled === true, server.env is {}
 * ```
 */
export function parseServerConfig(
  input: unknown,
  path: readonly (string | number)[] = [],
): ServerConfig {
  const result = serverConfigSchema.safeParse(input);
  if (result.success) return result.data;
  throw configError('Invalid server configuration', describeIssues(result.error.issues, path));
}

/**
 * A {@link ConfigError} (`CONFIG_INVALID`) that lists `issues` in its message (the first ten,
 * then a count) and all of them in `details.issues`; returned, for the caller to throw.
 */
export function configError(title: string, issues: readonly ConfigIssue[]): ConfigError {
  const shown = issues.slice(0, 10).map((issue) => `${issue.path}: ${issue.message}`);
  const more = issues.length > 10 ? `; and ${issues.length - 10} more` : '';
  return new ConfigError(`${title}: ${shown.join('; ')}${more}.`, {
    details: { issues: issues.map((issue) => ({ ...issue })) },
  });
}
