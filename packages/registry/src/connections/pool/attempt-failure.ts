import { clip } from '@mcp-agent/core';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ServerConfig } from '@mcp-agent/core';
import { ProcessTransport } from '@mcp-agent/wire';

/** Why one connection attempt failed, in words a user can act on. */
export interface AttemptFailure {
  readonly message: string;
  /** The server answered 401 or 403: retrying without signing in cannot help. */
  readonly needsAuthorization: boolean;
}

const MAX_LINE = 300;

// Lines of a crash report that say where, not why: Node's version banner, stack frames, the
// printed error's properties, the require stack, Python's traceback frames, npm's log pointer.
const NOISE = [
  /^Node\.js v\d/,
  /^at\s/,
  /^node:internal\//,
  /^(?:code|errno|syscall|path|requireStack|url|type|cause|input):\s/,
  /^Require stack:$/,
  /^- \//,
  /^[{}[\]()]+[,;]?$/,
  /^'[^']*'[,\]]?$/,
  /^Traceback \(most recent call last\):$/,
  /^File ".*", line \d+/,
  /^npm (?:error|ERR!) (?:code|errno|syscall) \S+$/,
  /^npm (?:error|ERR!) A complete log of this run/,
  /^npm (?:error|ERR!)\s*$/,
  /^\(Use `node --trace-\w+/,
];
// A line that says something went wrong, preferred over a server's ordinary chatter.
const TROUBLE =
  /\b(?:\w*Error|Exception|ERR_\w+|E[A-Z]{3,})\b|^error\b|^npm (?:error|ERR!)|^fatal|\bcannot\b|\bcan't\b|not found|no such|denied|refused|failed|missing|invalid|unable|timed? ?out|certificate/i;

/**
 * The line of a server's stderr that says why it stopped: Node's "Cannot find module …" rather
 * than the stack under it or the `Node.js v24…` banner after it; npm's "request to … failed"
 * rather than "npm error code …"; Python's last traceback line. The first line that reads as
 * trouble, else the first that is not noise; `undefined` when there is nothing to show.
 */
export function meaningfulStderrLine(stderr: string): string | undefined {
  const lines = stderr.split(/\r?\n/).map((line) => line.trim());
  // Node prints the source line that threw under its location, then a line of carets.
  const skipped = new Set<number>();
  lines.forEach((line, index) => {
    if (/^\^+$/.test(line)) [index, index - 1, index - 2].forEach((i) => skipped.add(i));
  });
  const kept = lines.filter(
    (line, index) =>
      line !== '' && !skipped.has(index) && !NOISE.some((pattern) => pattern.test(line)),
  );
  const line = kept.find((candidate) => TROUBLE.test(candidate)) ?? kept[0];
  if (line === undefined) return undefined;
  return clip(line, MAX_LINE);
}

/**
 * Describes a failed attempt from what the attempt saw: a program that could not start, a
 * process that exited (its code and its meaningful stderr line), a timeout, an HTTP status.
 */
export function describeAttemptFailure(
  error: unknown,
  transport: Transport,
  config: ServerConfig,
): AttemptFailure {
  const text = errorText(error);
  const status = httpStatus(error);
  if (status === 401 || status === 403) {
    return {
      message: `the server requires authorisation (HTTP ${status}); sign in to it`,
      needsAuthorization: true,
    };
  }
  if (!(transport instanceof ProcessTransport) || config.transport !== 'stdio')
    return { message: text, needsAuthorization: false };
  const systemCode = (error as { code?: unknown } | null)?.code;
  if (typeof systemCode === 'string' && transport.pid === undefined) {
    return { message: cannotStart(config.command, systemCode, text), needsAuthorization: false };
  }
  const line = meaningfulStderrLine(transport.stderrTail);
  const exit = transport.exit;
  if (exit !== undefined) {
    const how =
      exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    const hint = exit.code === 0 ? ' (is it an MCP server speaking over stdio?)' : '';
    return {
      message: `${how} before the MCP handshake${hint}${line === undefined ? ', with nothing on stderr' : `: ${line}`}`,
      needsAuthorization: false,
    };
  }
  return {
    message: line === undefined ? text : `${text} (stderr: ${line})`,
    needsAuthorization: false,
  };
}

function cannotStart(command: string, code: string, text: string): string {
  const shown = clip(command, 120);
  switch (code) {
    case 'ENOENT':
      return `cannot start "${shown}": no such program (ENOENT); check the command and that it is on PATH`;
    case 'EACCES':
      return `cannot start "${shown}": permission denied (EACCES); check that it is executable`;
    default:
      return `cannot start "${shown}": ${text}`;
  }
}

// StreamableHTTPError and SseError carry the HTTP status as a positive `code`.
function httpStatus(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' && code >= 400 && code < 600 ? code : undefined;
}

/** Why an attempt failed when initialize and tools/list got no answer in time. */
export function attemptTimeoutReason(ms: number): string {
  return `initialize and tools/list took over ${ms} ms`;
}

/** Why a caller stopped waiting for a connection that did not settle in time. */
export function waitReason(timeoutMs: number): string {
  return `no MCP handshake within ${seconds(timeoutMs)}`;
}

/**
 * True when a recorded last error says the server did not answer the MCP handshake in time
 * (an attempt's timeout or a caller's wait, see above), rather than that it failed otherwise.
 */
export function isHandshakeTimeout(lastError: string | null | undefined): boolean {
  return (
    lastError != null &&
    (lastError.startsWith('initialize and tools/list took over ') ||
      lastError.startsWith('no MCP handshake within '))
  );
}

/** Milliseconds as seconds for a sentence: `2 s`, `1.5 s`. */
export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** What an error says: its message, or the thrown value as a string. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
