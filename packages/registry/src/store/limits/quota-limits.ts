import { z } from 'zod';
import { configError } from '@mcp-agent/core';

/**
 * A tenant's quotas (the seed design's `costLimits`), each counted in the database so every
 * process on it shares the count. Absent: no limit.
 */
export interface QuotaLimits {
  /** Tool calls per clock hour (UTC), from the model and from code alike. */
  readonly maxCallsPerHour?: number;
  /** Model tokens (input, output, cache reads and writes) per UTC day. */
  readonly maxTokensPerDay?: number;
  /** Distinct servers whose tools one thread (or one task without a thread) may call. */
  readonly maxServersPerThread?: number;
}

/** A tenant's own limits: a number replaces the deployment's, `null` inherits it. */
export type UserQuotaLimits = { readonly [K in keyof QuotaLimits]?: number | null };

/** Which quota. */
export type QuotaName = keyof QuotaLimits;

const limit = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** The zod schema of {@link QuotaLimits}: whole numbers ≥ 0; 0 allows nothing. */
export const quotaLimitsSchema = z.strictObject({
  maxCallsPerHour: limit.optional(),
  maxTokensPerDay: limit.optional(),
  maxServersPerThread: limit.optional(),
});

/** Validates deployment quotas (from options or `MCP_AGENT_QUOTAS`); a `ConfigError` names each bad field. */
export function parseQuotaLimits(input: unknown, path = 'quotas'): QuotaLimits {
  const parsed = quotaLimitsSchema.safeParse(input ?? {});
  if (!parsed.success) {
    throw configError(
      'Invalid quotas',
      parsed.error.issues.map((issue) => ({
        path: [path, ...issue.path].join('.'),
        message: `${issue.message} (quotas are whole numbers ≥ 0: maxCallsPerHour, maxTokensPerDay, maxServersPerThread)`,
      })),
    );
  }
  return Object.fromEntries(
    Object.entries(parsed.data).filter(([, value]) => value !== undefined),
  ) as QuotaLimits;
}

/** Validates a tenant's own limits: numbers replace the deployment's, `null` returns to them. */
export function parseUserQuotaLimits(input: unknown): UserQuotaLimits {
  const parsed = z
    .strictObject({
      maxCallsPerHour: limit.nullable().optional(),
      maxTokensPerDay: limit.nullable().optional(),
      maxServersPerThread: limit.nullable().optional(),
    })
    .safeParse(input);
  if (parsed.success) return parsed.data;
  throw configError(
    'Invalid user quotas',
    parsed.error.issues.map((issue) => ({
      path: issue.path.join('.'),
      message: `${issue.message} (a whole number ≥ 0, or null to use the deployment's)`,
    })),
  );
}
