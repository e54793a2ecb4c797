import { clip } from './clip.js';
import { InvalidArgumentsError } from './errors.js';

/** `<serverId>.<toolName>`: the server id has no dots, so the first dot splits. */
export type ToolId = `${string}.${string}`;

/** Server ids: lowercase letters, digits, `_` and `-`, 1 to 64 characters, no dots. */
export const SERVER_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** MCP's own bound on tool names (spec 2025-11-25 says 1 to 128 characters). */
export const MAX_TOOL_NAME_LENGTH = 128;

// MCP only recommends a character set for names, so we accept any printable name and refuse
// only what would break ids in logs and prompts: whitespace and control characters.
const FORBIDDEN_IN_TOOL_NAME = /[\s\p{Cc}\p{Cf}]/u;

/** True when `value` is a valid server id. */
export function isServerId(value: unknown): value is string {
  return typeof value === 'string' && SERVER_ID_PATTERN.test(value);
}

/** Why `name` is not a usable tool name, or `undefined` when it is. */
export function toolNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'the tool name is empty';
  if (name.length > MAX_TOOL_NAME_LENGTH) {
    return `the tool name is ${name.length} characters long (at most ${MAX_TOOL_NAME_LENGTH})`;
  }
  if (FORBIDDEN_IN_TOOL_NAME.test(name)) {
    return 'the tool name contains whitespace or control characters';
  }
  return undefined;
}

/**
 * Builds a tool id, checking both halves.
 *
 * @throws InvalidArgumentsError (`INVALID_ARGUMENTS`) when `serverId` breaks
 *   {@link SERVER_ID_PATTERN} or `toolName` is empty, too long or has whitespace or control
 *   characters; `details.reason` says which.
 * @example
 * ```ts
 * formatToolId('github', 'create_issue'); // 'github.create_issue'
 * formatToolId('docs', 'search.v2'); // 'docs.search.v2': a tool name may hold dots
 * ```
 */
export function formatToolId(serverId: string, toolName: string): ToolId {
  // Checked before joining: a dotted server id would otherwise parse as another server.
  if (!SERVER_ID_PATTERN.test(serverId)) throw invalidToolId(serverIdProblem(serverId));
  return parseToolId(`${serverId}.${toolName}`).id;
}

/** A parsed tool id. */
export interface ParsedToolId {
  /** The whole id, unchanged. */
  readonly id: ToolId;
  /** The server's id: everything before the first dot. */
  readonly serverId: string;
  /** The tool's name on its server: everything after the first dot, dots included. */
  readonly toolName: string;
}

/**
 * Splits `<serverId>.<toolName>` at the first dot, for ids that come from a model or a caller.
 *
 * @throws InvalidArgumentsError (`INVALID_ARGUMENTS`) naming what is wrong and the expected
 *   shape: not a string, no dot, a bad server id or a bad tool name; `details.reason` says which.
 * @example
 * ```ts
 * parseToolId('docs.search.v2');
 * // { id: 'docs.search.v2', serverId: 'docs', toolName: 'search.v2' }
 * ```
 */
export function parseToolId(value: unknown): ParsedToolId {
  const fail = (reason: string): never => {
    throw invalidToolId(reason);
  };
  if (typeof value !== 'string') return fail(`expected a string, got ${typeof value}`);
  const dot = value.indexOf('.');
  if (dot < 0) return fail(`"${clip(value, 80)}" has no "." between server and tool`);
  const serverId = value.slice(0, dot);
  const toolName = value.slice(dot + 1);
  if (!SERVER_ID_PATTERN.test(serverId)) fail(serverIdProblem(serverId));
  const problem = toolNameProblem(toolName);
  if (problem !== undefined) fail(problem);
  return { id: value as ToolId, serverId, toolName };
}

function serverIdProblem(serverId: string): string {
  return `server id "${clip(serverId, 80)}" must match ${SERVER_ID_PATTERN.source} (lowercase letters, digits, "_" and "-")`;
}

function invalidToolId(reason: string): InvalidArgumentsError {
  return new InvalidArgumentsError(
    `Invalid tool id: ${reason}. Expected "<serverId>.<toolName>", for example "github.create_issue".`,
    { details: { reason } },
  );
}
