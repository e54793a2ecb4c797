import { z } from 'zod';
import { configError, type Usage } from '@mcp-agent/core';

/** A model's price in US dollars per million tokens of each kind. */
export interface ModelPrice {
  /** Prompt tokens that were not read from or written to the cache. */
  readonly inputPerMTok: number;
  /** Generated tokens. */
  readonly outputPerMTok: number;
  /** Prompt-cache reads; default the input price. */
  readonly cacheReadPerMTok?: number;
  /** Prompt-cache writes; default the input price. */
  readonly cacheWritePerMTok?: number;
}

/**
 * Prices by model id (`ModelClient.modelId`; a dated id falls back to its undated one). A model
 * with no price has no estimated cost (`null`), rather than a guessed one.
 *
 * @example
 * ```ts
 * // Over the defaults: a local model at no cost, and a hosted one at its list price.
 * const prices: PriceTable = {
 *   'llama-3.3-70b': { inputPerMTok: 0, outputPerMTok: 0 },
 *   'my-hosted-model': { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3 },
 * };
 * const stack = await openAgentStack({ prices });
 * ```
 */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * Estimates for the two default models only, as their makers published them in autumn 2026
 * (Anthropic's pricing page for Claude Sonnet 5.5, 5-minute cache writes; OpenAI's model page
 * for GPT-6.1 Sol, short-context rates). They are estimates: discounts, batch, regional and
 * long-context rates are not modelled. Operators set their own with `prices` or
 * `MCP_AGENT_MODEL_PRICES`.
 */
export const DEFAULT_MODEL_PRICES: PriceTable = Object.freeze({
  'claude-sonnet-5-5': {
    inputPerMTok: 2,
    outputPerMTok: 10,
    cacheReadPerMTok: 0.2,
    cacheWritePerMTok: 2.5,
  },
  'gpt-6.1-sol': {
    inputPerMTok: 2,
    outputPerMTok: 10,
    cacheReadPerMTok: 0.1,
    cacheWritePerMTok: 2.5,
  },
});

const price = z.number().min(0).max(1_000_000);
const tableSchema = z.record(
  z.string().min(1).max(200),
  z.strictObject({
    inputPerMTok: price,
    outputPerMTok: price,
    cacheReadPerMTok: price.optional(),
    cacheWritePerMTok: price.optional(),
  }),
);

/**
 * The price table in force: the defaults, then `MCP_AGENT_MODEL_PRICES` (JSON of the same
 * shape), then `overrides`, each model replaced whole. A bad entry is a `ConfigError` naming it.
 */
export function resolvePrices(
  overrides: PriceTable = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): PriceTable {
  const text = env.MCP_AGENT_MODEL_PRICES;
  let fromEnv: unknown = {};
  if (text !== undefined && text.trim() !== '') {
    try {
      fromEnv = JSON.parse(text);
    } catch (error) {
      throw configError('Invalid MCP_AGENT_MODEL_PRICES', [
        {
          path: 'MCP_AGENT_MODEL_PRICES',
          message: `not JSON (${(error as Error).message}); set it like {"my-model": {"inputPerMTok": 1, "outputPerMTok": 4}}`,
        },
      ]);
    }
  }
  const merged: Record<string, ModelPrice> = { ...DEFAULT_MODEL_PRICES };
  for (const [source, input] of [
    ['MCP_AGENT_MODEL_PRICES', fromEnv],
    ['prices', overrides],
  ] as const) {
    const parsed = tableSchema.safeParse(input);
    if (!parsed.success) {
      throw configError(
        `Invalid ${source}`,
        parsed.error.issues.map((issue) => ({
          path: [source, ...issue.path].join('.'),
          message: `${issue.message} (US dollars per million tokens: inputPerMTok, outputPerMTok, cacheReadPerMTok?, cacheWritePerMTok?)`,
        })),
      );
    }
    Object.assign(merged, parsed.data);
  }
  return Object.freeze(merged);
}

/**
 * The estimated cost of `usage` on `model` in US dollars, or `null` when the table has no
 * price for it. A dated id (`…-20260929`, `…-2026-09-29`) falls back to its undated one.
 */
export function estimateCostUsd(prices: PriceTable, model: string, usage: Usage): number | null {
  const entry =
    prices[model] ?? prices[model.replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, '')] ?? undefined;
  if (entry === undefined) return null;
  return (
    (usage.inputTokens * entry.inputPerMTok +
      usage.outputTokens * entry.outputPerMTok +
      usage.cacheReadTokens * (entry.cacheReadPerMTok ?? entry.inputPerMTok) +
      usage.cacheWriteTokens * (entry.cacheWritePerMTok ?? entry.inputPerMTok)) /
    1_000_000
  );
}
