import { RateLimitedError, clip } from '@mcp-agent/core';

/** A log level, by name, in pino's order. */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/** One log line as the web UI shows it. */
export interface LogEntry {
  /** Its place in the buffer; a reader resumes after it. */
  readonly seq: number;
  /** Epoch milliseconds. */
  readonly time: number;
  /** pino's level, by name. */
  readonly level: LogLevel;
  /** The message. */
  readonly msg: string;
  /** The tenant the line is about, when it is bound to one; only that user (and the operator) see it. */
  readonly userId?: string;
  /** The line's other fields as JSON, cut at 2,000 characters. */
  readonly fields: string;
}

/** Which lines a reader sees: one user's (or every line, for the operator) at a level or above. */
export interface LogFilter {
  /** The user whose lines to show; `undefined` for every line (the operator). */
  readonly userId: string | undefined;
  /** The lowest level shown. */
  readonly minLevel: LogLevel;
}

/** Bounds of the buffer and its live readers. */
export interface LogBufferLimits {
  /** Lines kept; default 2,000. */
  readonly maxEntries: number;
  /** Live readers in all; default 64. */
  readonly maxReaders: number;
  /** Live readers per user; default 4. */
  readonly maxReadersPerUser: number;
}

const LEVELS: Record<number, LogLevel> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};
const RANK: Record<LogLevel, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
};
const MAX_FIELDS = 2_000;

/** True for a known level name. */
export function isLogLevel(value: string): value is LogLevel {
  return Object.hasOwn(RANK, value);
}

interface Reader {
  readonly filter: LogFilter;
  readonly listener: (entry: LogEntry) => void;
}

/**
 * A pino destination that passes every line on (to standard error) and keeps the newest ones
 * for the web UI's live log: lines are already redacted by the logger. Bounded: `maxEntries`
 * lines, `maxReaders` live readers in all and `maxReadersPerUser` per user (one more is refused
 * with `RateLimitedError`). A user reads only the lines bound to their user id.
 */
export class LogBuffer {
  readonly #limits: LogBufferLimits;
  readonly #forward: { write(line: string): unknown } | undefined;
  readonly #entries: LogEntry[] = [];
  readonly #readers = new Set<Reader>();
  #seq = 0;

  constructor(
    options: { forward?: { write(line: string): unknown }; limits?: Partial<LogBufferLimits> } = {},
  ) {
    this.#forward = options.forward;
    this.#limits = { maxEntries: 2_000, maxReaders: 64, maxReadersPerUser: 4, ...options.limits };
  }

  /** pino's destination interface: one JSON line per call. */
  write(line: string): void {
    this.#forward?.write(line);
    const entry = this.#parse(line);
    if (entry === undefined) return;
    this.#entries.push(entry);
    if (this.#entries.length > this.#limits.maxEntries) this.#entries.shift();
    for (const reader of this.#readers) if (visible(entry, reader.filter)) reader.listener(entry);
  }

  /** How many lines are held, and how many readers are live. */
  get stats(): {
    /** Lines kept. */
    entries: number;
    /** Live readers. */
    readers: number;
  } {
    return { entries: this.#entries.length, readers: this.#readers.size };
  }

  /** The newest `limit` lines `filter` lets through, oldest first. */
  recent(filter: LogFilter, limit = 200): LogEntry[] {
    const found: LogEntry[] = [];
    for (let i = this.#entries.length - 1; i >= 0 && found.length < limit; i--) {
      const entry = this.#entries[i] as LogEntry;
      if (visible(entry, filter)) found.push(entry);
    }
    return found.reverse();
  }

  /** Calls `listener` with each new line `filter` lets through; returns the function that stops. */
  subscribe(filter: LogFilter, listener: (entry: LogEntry) => void): () => void {
    const own = [...this.#readers].filter((r) => r.filter.userId === filter.userId).length;
    if (this.#readers.size >= this.#limits.maxReaders || own >= this.#limits.maxReadersPerUser)
      throw new RateLimitedError(
        `Too many live log readers open (at most ${this.#limits.maxReadersPerUser} per user); close another log view first.`,
        { details: { retryAfterMs: 5_000 } },
      );
    const reader = { filter, listener };
    this.#readers.add(reader);
    return () => this.#readers.delete(reader);
  }

  #parse(line: string): LogEntry | undefined {
    let object: Record<string, unknown>;
    try {
      object = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return undefined;
    }
    if (object === null || typeof object !== 'object') return undefined;
    const { level, time, msg, userId, ...rest } = object;
    let fields = JSON.stringify(rest);
    fields = clip(fields, MAX_FIELDS);
    return {
      seq: ++this.#seq,
      time: typeof time === 'number' ? time : Date.now(),
      level: LEVELS[Number(level)] ?? 'info',
      msg: typeof msg === 'string' ? msg.slice(0, 1_000) : '',
      ...(typeof userId === 'string' ? { userId } : {}),
      fields,
    };
  }
}

function visible(entry: LogEntry, filter: LogFilter): boolean {
  if (RANK[entry.level] < RANK[filter.minLevel]) return false;
  return filter.userId === undefined || entry.userId === filter.userId;
}
