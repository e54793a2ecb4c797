import { pino, type DestinationStream, type Level } from 'pino';
import { clip } from './clip.js';
import { ConfigError } from './errors.js';
import { defineData } from './json.js';

const LEVELS: readonly string[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/** The logging surface the packages use; a pino logger satisfies it. */
export interface Logger {
  /** Detail for whoever debugs: fields first, then the message (pino's order). */
  debug(object: object, message?: string): void;
  /** What happened in normal operation. */
  info(object: object, message?: string): void;
  /** Something refused or degraded that the process survives. */
  warn(object: object, message?: string): void;
  /** A failure the operator should look at. */
  error(object: object, message?: string): void;
  /**
   * A logger whose every line carries `bindings` too.
   *
   * @example
   * ```ts
   * const log = logger.child({ userId: ctx.userId, requestId: ctx.requestId });
   * log.info({ serverId }, 'connected');
   * ```
   */
  child(bindings: Record<string, unknown>): Logger;
  /**
   * Whether a line at `level` would be written (pino's own method), so that a caller can skip
   * what only a written line needs. Optional: a logger without it is taken to write them all.
   */
  isLevelEnabled?(level: LogLevel): boolean;
}

/** The levels a {@link Logger} writes at. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** Minimum level; default `MCP_AGENT_LOG_LEVEL` or `info`. */
  readonly level?: Level | 'silent';
  /** Where lines go; default standard error, so standard output stays free for results. */
  readonly destination?: DestinationStream;
}

/** Replaces a redacted value. */
export const REDACTED = '[redacted]';

// Keys whose values are secrets wherever they appear in a log object.
const SECRET_KEY =
  /pass(word|wd|phrase)?$|secret|token|api[-_]?key|authori[sz]ation|cookie|credential|private[-_]?key|client[-_]?secret|^env$/i;
// Values that look like secrets even under an innocent key.
const SECRET_VALUE =
  /\b(sk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})|Bearer\s+[A-Za-z0-9._~+/=-]{8,}|-----BEGIN [A-Z ]*PRIVATE KEY-----/g;
const MAX_DEPTH = 8;

/**
 * Replaces values of secret-looking keys (token, password, apiKey, authorization, env, …)
 * and secret-shaped strings (API keys, bearer tokens, JWTs, private keys) at any depth, with
 * `[redacted]`; nesting past 8 levels is summarised. Returns a copy; `value` is unchanged.
 *
 * @example
 * ```ts
 * redactSecrets({ headers: { Authorization: 'Bearer abc…' }, note: 'key sk-…' });
 * // { headers: { Authorization: '[redacted]' }, note: 'key [redacted]' }
 * ```
 */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.replace(SECRET_VALUE, REDACTED);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return '[Nested too deep]';
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  if (value instanceof Error) {
    return { type: value.name, message: redactSecrets(value.message, depth + 1) };
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    defineData(out, key, SECRET_KEY.test(key) ? REDACTED : redactSecrets(item, depth + 1));
  }
  return out;
}

/**
 * A pino JSON logger whose every line passes through {@link redactSecrets}, message included.
 *
 * @throws ConfigError (`CONFIG_INVALID`) when the level, given or read from
 *   `MCP_AGENT_LOG_LEVEL`, is not one of pino's (`trace` … `fatal`, `silent`); the message
 *   names where it came from.
 * @example
 * ```ts
 * const logger = createLogger({ level: 'debug' });
 * logger.info({ apiKey: 'sk-…' }, 'configured'); // {"level":30,…,"apiKey":"[redacted]",…}
 * ```
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const fromEnv = process.env.MCP_AGENT_LOG_LEVEL || undefined;
  const level = options.level ?? fromEnv ?? 'info';
  if (!LEVELS.includes(level)) {
    const source = options.level === undefined ? 'MCP_AGENT_LOG_LEVEL' : 'The log level';
    throw new ConfigError(`${source} is "${clip(level, 20)}"; use one of ${LEVELS.join(', ')}.`);
  }
  return pino(
    {
      level,
      base: undefined,
      formatters: { log: (object) => redactSecrets(object) as Record<string, unknown> },
      hooks: {
        // The message string is logged as well as the object; redact it too.
        logMethod(args, method) {
          const redacted = args.map((arg) =>
            typeof arg === 'string' ? (redactSecrets(arg) as string) : arg,
          ) as Parameters<typeof method>;
          method.apply(this, redacted);
        },
      },
    },
    options.destination ?? pino.destination(2),
  );
}

/** A logger that drops everything; no stream is opened. */
export const silentLogger: Logger = Object.freeze({
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
  isLevelEnabled: () => false,
});
