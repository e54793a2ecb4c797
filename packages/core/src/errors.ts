import { ErrorCode } from './error-codes.js';
import { toJsonSafe, type JsonObject } from './json.js';

// A registry-wide symbol, so that two copies of this package in one process (the compat
// package makes that likely) still recognise each other's errors.
const brand = Symbol.for('@mcp-agent/core/error');

/** Options every mcp-agent error takes. */
export interface McpAgentErrorOptions {
  /** The original failure, kept for logs and debugging. */
  readonly cause?: unknown;
  /** JSON-safe facts about the failure; copied through {@link toJsonSafe}. */
  readonly details?: Record<string, unknown>;
}

/**
 * The base of every error mcp-agent throws or returns. `code` is stable (see
 * {@link ErrorCode}); `details` is always JSON-safe; `cause` keeps the original.
 */
export class McpAgentError extends Error {
  /** The code every instance of this class carries; the base class has none of its own. */
  static readonly code: ErrorCode | undefined = undefined;

  /** The stable code callers branch on; never renamed or reused (see {@link ErrorCode}). */
  readonly code: ErrorCode;
  /**
   * JSON-safe facts about the failure, `{}` when there are none; what each class puts here is
   * said on the class (for example `details.issues` on {@link ConfigError}).
   */
  readonly details: JsonObject;
  /** The registry-wide mark {@link McpAgentError.isInstance} looks for; not enumerable. */
  declare readonly [brand]: true;

  /**
   * Usually called through a subclass, which passes its own code. `options.details` is copied
   * through {@link toJsonSafe}, so a cycle, a function or a hostile getter cannot reach the wire.
   */
  constructor(code: ErrorCode, message: string, options: McpAgentErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    const details = options.details === undefined ? {} : toJsonSafe(options.details);
    this.details =
      details !== null && typeof details === 'object' && !Array.isArray(details) ? details : {};
    Object.defineProperty(this, brand, { value: true });
  }

  /**
   * True when `value` is an mcp-agent error (of this class's code, when called on a subclass),
   * even when it was created by another copy of this package. Prefer it to `instanceof`, which
   * fails across two copies.
   *
   * @example
   * ```ts
   * if (ToolNotFoundError.isInstance(error)) suggest(error.details.suggestions);
   * else if (McpAgentError.isInstance(error)) console.error(error.code, error.message);
   * ```
   */
  static isInstance<T extends abstract new (...args: never[]) => McpAgentError>(
    this: T & { readonly code: ErrorCode | undefined },
    value: unknown,
  ): value is InstanceType<T> {
    if (typeof value !== 'object' || value === null) return false;
    try {
      if (!(brand in value)) return false;
      return this.code === undefined || (value as McpAgentError).code === this.code;
    } catch {
      // A hostile proxy is not one of ours.
      return false;
    }
  }

  /** The JSON form sent over the wire: never the stack, never the cause. */
  toJSON(): {
    /** The class name, for example `ToolNotFoundError`. */
    name: string;
    /** The stable code. */
    code: ErrorCode;
    /** The message for a person: what went wrong and how to fix it. */
    message: string;
    /** The JSON-safe details, `{}` when there are none. */
    details: JsonObject;
  } {
    return { name: this.name, code: this.code, message: this.message, details: this.details };
  }
}

/** A server id that the tenant does not have. */
export class ServerNotFoundError extends McpAgentError {
  static override readonly code = ErrorCode.ServerNotFound;
  constructor(message: string, options?: McpAgentErrorOptions) {
    super(ErrorCode.ServerNotFound, message, options);
  }
}

/** A tool id that no available server serves; `details.suggestions` lists close ids. */
export class ToolNotFoundError extends McpAgentError {
  static override readonly code = ErrorCode.ToolNotFound;
  constructor(message: string, options?: McpAgentErrorOptions) {
    super(ErrorCode.ToolNotFound, message, options);
  }
}

/**
 * Something else the caller named is not there for them: a task, a route, a kept result, a
 * resource. Another tenant's is the same "not found" as a missing one. Servers and tools have
 * their own codes ({@link ServerNotFoundError}, {@link ToolNotFoundError}).
 */
export class NotFoundError extends McpAgentError {
  static override readonly code = ErrorCode.NotFound;
  constructor(message: string, options?: McpAgentErrorOptions) {
    super(ErrorCode.NotFound, message, options);
  }
}

/** Credentials are missing, expired or refused; the user has to (re-)authorise. */
export class UnauthorizedError extends McpAgentError {
  static override readonly code = ErrorCode.Unauthorized;
  constructor(message: string, options?: McpAgentErrorOptions) {
    super(ErrorCode.Unauthorized, message, options);
  }
}

/** The tool ran and failed, or its server did. */
export class ToolExecutionError extends McpAgentError {
  static override readonly code = ErrorCode.ToolExecutionFailed;
  constructor(message: string, options?: McpAgentErrorOptions) {
    super(ErrorCode.ToolExecutionFailed, message, options);
  }
}

/** Input that breaks a schema; `details.issues` lists each path, what was expected and got. */
export class InvalidArgumentsError extends McpAgentError {
  static override readonly code = ErrorCode.InvalidArguments;
  constructor(message: string, options?: McpAgentErrorOptions) {
    super(ErrorCode.InvalidArguments, message, options);
  }
}

/** Servers that are not ready; `details.servers` gives each one's state and last error. */
export class NotReadyError extends McpAgentError {
  static override readonly code = ErrorCode.NotReady;
  constructor(message: string, options?: McpAgentErrorOptions) {
    super(ErrorCode.NotReady, message, options);
  }
}

/** A hard limit of the task's budget was reached; `details.limit` names it. */
export class BudgetExceededError extends McpAgentError {
  static override readonly code = ErrorCode.BudgetExceeded;
  constructor(message: string, options?: McpAgentErrorOptions) {
    super(ErrorCode.BudgetExceeded, message, options);
  }
}

/** Sandboxed code failed, broke a limit, or was killed. */
export class SandboxError extends McpAgentError {
  static override readonly code = ErrorCode.Sandbox;
  constructor(message: string, options?: McpAgentErrorOptions) {
    super(ErrorCode.Sandbox, message, options);
  }
}

/** Configuration that does not validate; `details.issues` lists every bad path. */
export class ConfigError extends McpAgentError {
  static override readonly code = ErrorCode.Config;
  constructor(message: string, options?: McpAgentErrorOptions) {
    super(ErrorCode.Config, message, options);
  }
}

/** The caller aborted the work. */
export class CancelledError extends McpAgentError {
  static override readonly code = ErrorCode.Cancelled;
  constructor(message = 'The operation was cancelled.', options?: McpAgentErrorOptions) {
    super(ErrorCode.Cancelled, message, options);
  }
}

/** A deadline passed before the work finished. */
export class TimeoutError extends McpAgentError {
  static override readonly code = ErrorCode.Timeout;
  constructor(message: string, options?: McpAgentErrorOptions) {
    super(ErrorCode.Timeout, message, options);
  }
}

/** A stored secret could not be decrypted: wrong or missing key, or tampered data. */
export class CredentialError extends McpAgentError {
  static override readonly code = ErrorCode.CredentialUnreadable;
  constructor(message: string, options?: McpAgentErrorOptions) {
    super(ErrorCode.CredentialUnreadable, message, options);
  }
}

/** A policy refused the call: denied outright, approval refused, or a changed tool on hold. */
export class PolicyDeniedError extends McpAgentError {
  static override readonly code = ErrorCode.PolicyDenied;
  constructor(message: string, options?: McpAgentErrorOptions) {
    super(ErrorCode.PolicyDenied, message, options);
  }
}

/** A request body or message past the size limit; `details.maxBytes` gives the limit. */
export class PayloadTooLargeError extends McpAgentError {
  static override readonly code = ErrorCode.PayloadTooLarge;
  constructor(message: string, options?: McpAgentErrorOptions) {
    super(ErrorCode.PayloadTooLarge, message, options);
  }
}

/** Too many calls; `details.retryAfterMs` says when to try again. */
export class RateLimitedError extends McpAgentError {
  static override readonly code = ErrorCode.RateLimited;
  constructor(message: string, options?: McpAgentErrorOptions) {
    super(ErrorCode.RateLimited, message, options);
  }
}

/**
 * A tenant's quota is used up (calls per hour, tokens per day, servers per thread): shared by
 * every process on the database. `details` names the `limit`, its `value`, what was `used`, and
 * `resetsAt` (ISO 8601, or null when it never resets by itself) with `retryAfterMs`.
 */
export class QuotaExceededError extends McpAgentError {
  static override readonly code = ErrorCode.QuotaExceeded;
  constructor(message: string, options?: McpAgentErrorOptions) {
    super(ErrorCode.QuotaExceeded, message, options);
  }
}
