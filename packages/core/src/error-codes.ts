/**
 * Every stable error code of mcp-agent, in one map. Codes are part of the public contract:
 * callers branch on them, so a code is never renamed or reused.
 */
export const ErrorCode = {
  Internal: 'INTERNAL',
  ProviderNotFound: 'PROVIDER_NOT_FOUND',
  ToolNotFound: 'TOOL_NOT_FOUND',
  NotFound: 'NOT_FOUND',
  Unauthorized: 'UNAUTHORIZED',
  ToolExecutionFailed: 'TOOL_EXECUTION_FAILED',
  InvalidArguments: 'INVALID_ARGUMENTS',
  NotReady: 'NOT_READY',
  BudgetExceeded: 'BUDGET_EXCEEDED',
  Sandbox: 'SANDBOX_ERROR',
  Config: 'CONFIG_INVALID',
  Cancelled: 'CANCELLED',
  Timeout: 'TIMEOUT',
  CredentialUnreadable: 'CREDENTIAL_UNREADABLE',
  PolicyDenied: 'POLICY_DENIED',
  RateLimited: 'RATE_LIMITED',
  QuotaExceeded: 'QUOTA_EXCEEDED',
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
} as const;

/** One of the values of {@link ErrorCode}. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const codes = new Set<string>(Object.values(ErrorCode));

/** True when `value` is one of the stable codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && codes.has(value);
}
