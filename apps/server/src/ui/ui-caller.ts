import type { Context } from 'hono';
import {
  checkUserId,
  createCheckedContext,
  InvalidArgumentsError,
  silentLogger,
  type AgentContext,
  type Logger,
  type UserId,
} from '@mcp-agent/core';
import type { OperatorToken } from '../auth/operator-token.js';
import { authenticateBearer, isCaller, type Refusal } from '../auth/bearer-auth.js';
import type { TokenVerifier } from '../auth/token-verifier.js';

/** Who is reading the web UI's data: a tenant, or the operator (optionally looking at one tenant). */
export interface UiCaller {
  readonly operator: boolean;
  /** The tenant whose data is shown; `undefined` for the operator looking at every tenant. */
  readonly userId: UserId | undefined;
  /** The token is `userId`'s own (so it may start tasks through `/v1`). */
  readonly self: boolean;
}

/**
 * Authenticates a web UI request: the operator token (then `?tenant=` narrows the views to one
 * tenant), or a user's bearer token through the API's own verifier; a tenant's `?tenant=` is
 * ignored. A refusal is the API's own 401, 403 or 503.
 */
export async function uiCaller(
  c: Context,
  options: {
    readonly verifier: TokenVerifier;
    readonly operator: OperatorToken | undefined;
    readonly resourceMetadataUrl: string;
    readonly logger?: Logger;
  },
): Promise<UiCaller | Refusal> {
  const authorization = c.req.header('authorization');
  const operator = options.operator?.matches(authorization) === true;
  const outcome = await authenticateBearer(authorization, options.verifier, {
    resourceMetadataUrl: options.resourceMetadataUrl,
    logger: options.logger ?? silentLogger,
  });
  if (operator) {
    // The operator token may also be a user's own (`mcp-agent ui`: one person is both).
    const own = isCaller(outcome) ? outcome.userId : undefined;
    const raw = c.req.query('tenant');
    const tenant = raw === undefined || raw === '' ? undefined : checked(raw);
    return tenant === undefined
      ? { operator: true, userId: own, self: own !== undefined }
      : { operator: true, userId: tenant, self: tenant === own };
  }
  return isCaller(outcome) ? { operator: false, userId: outcome.userId, self: true } : outcome;
}

/** The context of a tenant view; the operator must name the tenant (`?tenant=`). */
export function tenantContext(caller: UiCaller): AgentContext {
  if (caller.userId === undefined)
    throw new InvalidArgumentsError(
      'This view shows one tenant: choose one (?tenant=<user id>) to look at as the operator.',
    );
  return createCheckedContext({ userId: caller.userId });
}

// The operator names a tenant exactly: a look-alike is not that tenant, and is not mapped onto it.
function checked(tenant: string): UserId {
  const check = checkUserId(tenant);
  if (!check.ok)
    throw new InvalidArgumentsError(`?tenant= is not a valid user id: ${check.problem}.`, {
      details: { reason: check.problem },
    });
  return check.userId;
}
