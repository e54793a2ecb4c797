import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import type { z } from 'zod';
import {
  createCheckedContext,
  describeIssues,
  InvalidArgumentsError,
  type AgentContext,
  type UserId,
} from '@mcp-agent/core';

/**
 * The HTTP API's Hono environment: the Node request, and the user its bearer token names
 * (canonical: made once, at sign-in).
 */
export type ApiEnv = { Bindings: HttpBindings; Variables: { userId: UserId } };

/** The agent context of the request's user. */
export function contextOf(c: Context<ApiEnv>): AgentContext {
  return createCheckedContext({ userId: c.get('userId') });
}

/** The request's JSON body checked against `schema`; an `InvalidArgumentsError` names each issue. */
export async function readBody<T>(c: Context<ApiEnv>, schema: z.ZodType<T>): Promise<T> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw new InvalidArgumentsError('The request body is not JSON.');
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = describeIssues(parsed.error.issues);
    throw new InvalidArgumentsError(
      `Invalid request body: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}.`,
      { details: { issues } },
    );
  }
  return parsed.data;
}
