import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { PROVIDER_ID_PATTERN } from '../tool-id.js';
import { describeIssues, type ConfigIssue } from './issues.js';

const providerId = z
  .string()
  .regex(
    PROVIDER_ID_PATTERN,
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
  id: providerId,
  name: z.string().min(1).max(200).optional(),
  description: z.string().max(2_000).optional(),
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
  transport: z.literal('stdio'),
  command: z.string().trim().min(1, 'must name the program to run'),
  args: z.array(z.string()).default([]),
  env: z.record(envName, z.string()).default({}),
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
  transport: z.enum(['streamable-http', 'sse', 'auto']),
  url: httpUrl,
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
 * Validates one server definition. Throws {@link ConfigError} whose `details.issues` lists
 * every bad path; messages never echo values, which may be secrets.
 */
export function parseServerConfig(
  input: unknown,
  path: readonly (string | number)[] = [],
): ServerConfig {
  const result = serverConfigSchema.safeParse(input);
  if (result.success) return result.data;
  throw configError('Invalid server configuration', describeIssues(result.error.issues, path));
}

/** A {@link ConfigError} that lists `issues` in its message and details. */
export function configError(title: string, issues: readonly ConfigIssue[]): ConfigError {
  const shown = issues.slice(0, 10).map((issue) => `${issue.path}: ${issue.message}`);
  const more = issues.length > 10 ? `; and ${issues.length - 10} more` : '';
  return new ConfigError(`${title}: ${shown.join('; ')}${more}.`, {
    details: { issues: issues.map((issue) => ({ ...issue })) },
  });
}
