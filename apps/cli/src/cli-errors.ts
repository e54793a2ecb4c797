import { ErrorCode, InvalidArgumentsError, McpAgentError, toMcpAgentError } from '@mcp-agent/core';

// Exit codes: 0 done, 1 failed, 2 bad usage or input, 3 not found, 4 not ready or unauthorised,
// 5 a quota or rate limit reached (try again later). Every code, not a Partial with a default:
// a new code does not compile until someone decides its exit code here.
const EXIT: Record<ErrorCode, number> = {
  INVALID_ARGUMENTS: 2,
  CONFIG_INVALID: 2,
  SERVER_NOT_FOUND: 3,
  TOOL_NOT_FOUND: 3,
  NOT_FOUND: 3,
  NOT_READY: 4,
  UNAUTHORIZED: 4,
  RATE_LIMITED: 5,
  QUOTA_EXCEEDED: 5,
  INTERNAL: 1,
  TOOL_EXECUTION_FAILED: 1,
  BUDGET_EXCEEDED: 1,
  SANDBOX_ERROR: 1,
  CANCELLED: 1,
  TIMEOUT: 1,
  CREDENTIAL_UNREADABLE: 1,
  POLICY_DENIED: 1,
  PAYLOAD_TOO_LARGE: 1,
};

// What the model's meta-tools are called at a terminal.
const CLI_WORDS: readonly [RegExp, string][] = [
  [/\bsearch_tools\b/g, '"mcp-agent tools search"'],
  [/\bdescribe_tools\b/g, '"mcp-agent tools describe"'],
  [/\bcall_tool\b/g, '"mcp-agent tools call"'],
  [/\brun_code\b/g, '"mcp-agent exec"'],
];

/** The process's exit code for an error. */
export function exitCode(error: McpAgentError): number {
  return EXIT[error.code];
}

/**
 * Anything thrown as the one error a user reads: file-system errors become sentences naming the
 * path (never a raw `ENOENT`), and messages written for a model name the CLI commands instead
 * of the meta-tools.
 */
export function cliError(thrown: unknown): McpAgentError {
  const error = toMcpAgentError(systemError(thrown) ?? thrown);
  let message = error.message;
  for (const [pattern, words] of CLI_WORDS) message = message.replace(pattern, words);
  if (message === error.message) return error;
  return new McpAgentError(error.code, message, { details: error.details, cause: error });
}

/** A hint after the message, where a command fixes it. */
export function hint(error: McpAgentError): string {
  if (error.code === ErrorCode.NotReady && !/servers status|MCP Registry/.test(error.message))
    return ' (see "mcp-agent servers status")';
  if (error.code === ErrorCode.Unauthorized) {
    // A model endpoint's refusal names the key's variable itself: OAuth is for MCP servers.
    if (typeof error.details.endpoint === 'string') return '';
    return ` (sign in with "mcp-agent auth login ${serverOf(error.details) ?? '<server>'}")`;
  }
  if (error.code === ErrorCode.QuotaExceeded) return ' (see "mcp-agent usage")';
  return '';
}

// The MCP server an error is about, when its details say.
function serverOf(details: Readonly<Record<string, unknown>>): string | undefined {
  if (typeof details.serverId === 'string') return details.serverId;
  const toolId = details.toolId;
  return typeof toolId === 'string' && toolId.includes('.') ? toolId.split('.')[0] : undefined;
}

/** Reads a file the user named; a missing or unreadable one is a sentence, not `ENOENT`. */
export function fileProblem(path: string, thrown: unknown): InvalidArgumentsError {
  return (
    systemError(thrown, path) ?? new InvalidArgumentsError(`Cannot read ${path}: ${String(thrown)}`)
  );
}

function systemError(thrown: unknown, path?: string): InvalidArgumentsError | undefined {
  const code = (thrown as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return undefined;
  const where = path ?? (thrown as { path?: unknown }).path;
  const target = typeof where === 'string' ? where : 'the file';
  switch (code) {
    case 'ENOENT':
      return new InvalidArgumentsError(`No such file or directory: ${target}.`);
    case 'EACCES':
    case 'EPERM':
      return new InvalidArgumentsError(`Permission denied: ${target}.`);
    case 'EISDIR':
      return new InvalidArgumentsError(`${target} is a directory; give a file.`);
    case 'ENOTDIR':
      return new InvalidArgumentsError(`A part of ${target} is not a directory.`);
    case 'EADDRINUSE':
      return new InvalidArgumentsError(
        `The port is already in use (${(thrown as Error).message.replace(/^.*EADDRINUSE:?\s*/, '')}); pick another.`,
      );
    default:
      return undefined;
  }
}
