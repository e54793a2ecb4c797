import { describe, expect, it } from 'vitest';
import { ConfigError } from '@mcp-agent/core';
import { DEFAULT_ANTHROPIC_MODEL } from './anthropic-model-client.js';
import { DEFAULT_MODEL_PRICES, estimateCostUsd, resolvePrices } from './model-prices.js';
import { DEFAULT_OPENAI_MODEL } from './openai-model-client.js';

const usage = {
  inputTokens: 1_000_000,
  outputTokens: 100_000,
  cacheReadTokens: 2_000_000,
  cacheWriteTokens: 0,
};

describe('model prices', () => {
  it('ship a price for each default model', () => {
    expect(Object.keys(DEFAULT_MODEL_PRICES).sort()).toEqual(
      [DEFAULT_ANTHROPIC_MODEL, DEFAULT_OPENAI_MODEL].sort(),
    );
  });

  it('estimate per million tokens of each kind; a dated id uses its undated price; unknown is null', () => {
    const prices = resolvePrices({}, {});
    // 1M input at $2, 0.1M output at $10, 2M cache reads at $0.20.
    expect(estimateCostUsd(prices, 'claude-sonnet-5-5', usage)).toBeCloseTo(3.4, 10);
    expect(estimateCostUsd(prices, 'claude-sonnet-5-5-20260928', usage)).toBeCloseTo(3.4, 10);
    expect(estimateCostUsd(prices, 'my-local-model', usage)).toBeNull();
  });

  it('the operator overrides per model, by option over MCP_AGENT_MODEL_PRICES over the defaults', () => {
    const prices = resolvePrices(
      { 'gpt-6.1-sol': { inputPerMTok: 1, outputPerMTok: 1 } },
      {
        MCP_AGENT_MODEL_PRICES: JSON.stringify({
          'my-local-model': { inputPerMTok: 0, outputPerMTok: 0 },
          'gpt-6.1-sol': { inputPerMTok: 99, outputPerMTok: 99 },
        }),
      },
    );
    expect(estimateCostUsd(prices, 'my-local-model', usage)).toBe(0);
    // Cache reads default to the input price when none is given.
    expect(estimateCostUsd(prices, 'gpt-6.1-sol', usage)).toBeCloseTo(3.1, 10);
    expect(prices['claude-sonnet-5-5']).toEqual(DEFAULT_MODEL_PRICES['claude-sonnet-5-5']);
  });

  it('a bad table is a ConfigError naming the entry', () => {
    expect(() => resolvePrices({}, { MCP_AGENT_MODEL_PRICES: '{oops' })).toThrow(
      /MCP_AGENT_MODEL_PRICES: not JSON/,
    );
    expect(() => resolvePrices({ m: { inputPerMTok: -1, outputPerMTok: 1 } } as never, {})).toThrow(
      ConfigError,
    );
    expect(() => resolvePrices({ m: { inputPerMTok: -1, outputPerMTok: 1 } } as never, {})).toThrow(
      /prices\.m\.inputPerMTok/,
    );
  });
});
