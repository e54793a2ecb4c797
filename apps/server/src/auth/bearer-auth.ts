import {
  checkUserId,
  ErrorCode,
  NotReadyError,
  PolicyDeniedError,
  toMcpAgentError,
  UnauthorizedError,
  type Logger,
  type UserId,
} from '@mcp-agent/core';
import type { TokenVerifier, VerifiedToken } from './token-verifier.js';
import { tokenDigest } from './token-digest.js';

/** The caller of an authenticated request. */
export interface Caller extends VerifiedToken {
  /** The user (tenant), canonical: made here, once, and carried typed from here on. */
  readonly userId: UserId;
  /** The token's {@link tokenDigest}: what ties sessions to it, so revoking it closes them. */
  readonly tokenDigest: string;
}

/** A refused request: the status, the error, and the `WWW-Authenticate` challenge to send. */
export interface Refusal {
  readonly status: 401 | 403 | 503;
  readonly code: ErrorCode;
  readonly message: string;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Authenticates a request from its `Authorization` header: the one answer both the HTTP API and
 * the gateway give. The user it names is held to core's user-id rule here, once, and refused
 * (never repaired) when it is not canonical. No token: 401 with `Bearer resource_metadata="…"`
 * (RFC 9728), so an MCP client finds where to sign in. A refused token: 401 with `error="invalid_token"` and why (RFC
 * 6750). A token without a required scope: 403 with `error="insufficient_scope"`. A verifier
 * that cannot check now: 503. The token itself is never logged.
 */
export async function authenticateBearer(
  authorization: string | undefined,
  verifier: TokenVerifier,
  options: {
    /** Named in every challenge; a function is called only when a request is refused. */
    readonly resourceMetadataUrl: string | (() => string);
    readonly logger: Logger;
  },
): Promise<Caller | Refusal> {
  const metadataUrl = () =>
    typeof options.resourceMetadataUrl === 'string'
      ? options.resourceMetadataUrl
      : options.resourceMetadataUrl();
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  const scope = verifier.requiredScopes ?? [];
  const challenge = (fields: Record<string, string>) => ({
    'www-authenticate': bearerChallenge({
      ...fields,
      ...(scope.length === 0 ? {} : { scope: scope.join(' ') }),
      resource_metadata: metadataUrl(),
    }),
  });
  if (token === undefined)
    return {
      status: 401,
      code: ErrorCode.Unauthorized,
      message: `This needs a bearer token: send "Authorization: Bearer <token>". The metadata at ${metadataUrl()} names where to get one.`,
      headers: challenge({}),
    };
  // Once per request: the static verifiers look the token up by it, and sessions are tied to it.
  const digest = tokenDigest(token);
  let verified: string | VerifiedToken | undefined;
  try {
    verified = await verifier.verify(token, digest);
  } catch (thrown) {
    if (UnauthorizedError.isInstance(thrown) || PolicyDeniedError.isInstance(thrown)) {
      const insufficient = PolicyDeniedError.isInstance(thrown);
      return {
        status: insufficient ? 403 : 401,
        code: thrown.code,
        message: thrown.message,
        headers: challenge({
          error: insufficient ? 'insufficient_scope' : 'invalid_token',
          error_description: thrown.message,
        }),
      };
    }
    const error = NotReadyError.isInstance(thrown)
      ? thrown
      : new NotReadyError('The token cannot be checked right now; retry.');
    if (!NotReadyError.isInstance(thrown))
      options.logger.error({ reason: toMcpAgentError(thrown).message }, 'token verifier failed');
    return {
      status: 503,
      code: error.code,
      message: error.message,
      headers: { 'retry-after': '5' },
    };
  }
  if (verified === undefined) {
    const message =
      'The bearer token was refused: it is not a token this server knows (wrong, or revoked). Send a valid one.';
    return {
      status: 401,
      code: ErrorCode.Unauthorized,
      message,
      headers: challenge({ error: 'invalid_token', error_description: message }),
    };
  }
  const found = typeof verified === 'string' ? { userId: verified } : verified;
  // One rule for every verifier and token kind, applied at sign-in: a user id that breaks it
  // is a refused token, never a session whose every call then fails (AUTH-18), and never mapped
  // onto its canonical form, which could be another user's (AUTH-22).
  const check = checkUserId(found.userId);
  if (!check.ok) {
    const reason = check.problem;
    options.logger.info({ reason }, 'token refused: its user id breaks the user-id rule');
    const message = `The bearer token was refused: the user it names is not a valid user id (${reason}). User ids are compared exactly and never trimmed or normalised; ask the operator for a token of a valid user.`;
    return {
      status: 401,
      code: ErrorCode.Unauthorized,
      message,
      headers: challenge({ error: 'invalid_token', error_description: message }),
    };
  }
  return { ...found, userId: check.userId, tokenDigest: digest };
}

/** True for an authenticated caller, false for a {@link Refusal}. */
export function isCaller(outcome: Caller | Refusal): outcome is Caller {
  return 'userId' in outcome;
}

/**
 * A `WWW-Authenticate: Bearer …` value (RFC 6750 §3) from auth-params; quotes and backslashes,
 * which the syntax cannot hold unescaped, are dropped from the values.
 */
export function bearerChallenge(fields: Readonly<Record<string, string>>): string {
  const params = Object.entries(fields).map(
    ([name, value]) => `${name}="${value.replace(/["\\]/g, '').replace(/[\r\n]/g, ' ')}"`,
  );
  return params.length === 0 ? 'Bearer' : `Bearer ${params.join(', ')}`;
}
