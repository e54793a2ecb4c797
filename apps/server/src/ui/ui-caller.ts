import type { Context } from 'hono';
import {
  createContext,
  InvalidArgumentsError,
  normalizeUserId,
  type AgentContext,
} from '@mcp-agent/core';
import type { OperatorToken } from '../auth/operator-token.js';
import { authenticateBearer, isCaller, type Refusal } from '../auth/bearer-auth.js';
import type { TokenVerifier } from '../gateway/token-verifier.js';
import { silentLogger, type Logger } from '@mcp-agent/core';

/** Who is reading the web UI's data: a tenant, or the operator (optionally looking at one tenant). */
export interface UiCaller {
  readonly operator: boolean;
  /** The tenant whose data is shown; `undefined` for the operator looking at every tenant. */
  readonly userId: string | undefined;
}

/**
 * Authenticates a web UI request: the operator token first (then `?tenant=` narrows the views to
 * one tenant), else a user's bearer token through the API's own verifier. A refusal is the API's
 * own 401, 403 or 503.
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
  if (options.operator?.matches(authorization) === true) {
    const tenant = c.req.query('tenant');
    return {
      operator: true,
      userId: tenant === undefined || tenant === '' ? undefined : checked(tenant),
    };
  }
  const outcome = await authenticateBearer(authorization, options.verifier, {
    resourceMetadataUrl: options.resourceMetadataUrl,
    logger: options.logger ?? silentLogger,
  });
  return isCaller(outcome) ? { operator: false, userId: outcome.userId } : outcome;
}

/** The context of a tenant view; the operator must name the tenant (`?tenant=`). */
export function tenantContext(caller: UiCaller): AgentContext {
  if (caller.userId === undefined)
    throw new InvalidArgumentsError(
      'This view shows one tenant: choose one (?tenant=<user id>) to look at as the operator.',
    );
  return createContext({ userId: caller.userId });
}

function checked(tenant: string): string {
  try {
    return normalizeUserId(tenant);
  } catch {
    throw new InvalidArgumentsError('?tenant= is not a valid user id.');
  }
}
