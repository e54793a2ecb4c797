/**
 * Every stable error code of mcp-agent, in one map. Codes are part of the public contract:
 * callers branch on them, so a code is never renamed or reused.
 */
export const ErrorCode = {
  /** Anything not ours, wrapped by {@link toMcpAgentError}: a bug or foreign failure (HTTP 500). */
  Internal: 'INTERNAL',
  /** {@link ServerNotFoundError}: the tenant has no server by that id (HTTP 404). */
  ServerNotFound: 'SERVER_NOT_FOUND',
  /** {@link ToolNotFoundError}: no available server serves that tool (HTTP 404). */
  ToolNotFound: 'TOOL_NOT_FOUND',
  /** {@link NotFoundError}: a task, route, kept result or resource not there for the caller. */
  NotFound: 'NOT_FOUND',
  /** {@link UnauthorizedError}: credentials missing, expired or refused (HTTP 401). */
  Unauthorized: 'UNAUTHORIZED',
  /** {@link ToolExecutionError}: the tool or its server failed (HTTP 500). */
  ToolExecutionFailed: 'TOOL_EXECUTION_FAILED',
  /** {@link InvalidArgumentsError}: input that breaks a schema (HTTP 400). */
  InvalidArguments: 'INVALID_ARGUMENTS',
  /** {@link NotReadyError}: servers not ready yet; retry later (HTTP 503). */
  NotReady: 'NOT_READY',
  /** {@link BudgetExceededError}: a hard limit of the task's budget was reached. */
  BudgetExceeded: 'BUDGET_EXCEEDED',
  /** {@link SandboxError}: sandboxed code failed, broke a limit or was killed. */
  Sandbox: 'SANDBOX_ERROR',
  /** {@link ConfigError}: configuration that does not validate (HTTP 400). */
  Config: 'CONFIG_INVALID',
  /** {@link CancelledError}: the caller aborted the work. */
  Cancelled: 'CANCELLED',
  /** {@link TimeoutError}: a deadline passed first. */
  Timeout: 'TIMEOUT',
  /** {@link CredentialError}: a stored secret could not be decrypted (HTTP 500). */
  CredentialUnreadable: 'CREDENTIAL_UNREADABLE',
  /** {@link PolicyDeniedError}: a policy refused the call (HTTP 403). */
  PolicyDenied: 'POLICY_DENIED',
  /** {@link RateLimitedError}: too many calls for now; `details.retryAfterMs` (HTTP 429). */
  RateLimited: 'RATE_LIMITED',
  /** {@link QuotaExceededError}: a tenant's quota is used up until it resets (HTTP 429). */
  QuotaExceeded: 'QUOTA_EXCEEDED',
  /** {@link PayloadTooLargeError}: a body or message past the size limit (HTTP 413). */
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
} as const;

/** One of the values of {@link ErrorCode}. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const codes = new Set<string>(Object.values(ErrorCode));

/** True when `value` is one of the stable codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && codes.has(value);
}
