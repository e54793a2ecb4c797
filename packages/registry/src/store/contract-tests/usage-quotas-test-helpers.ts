import type { AgentContext } from '@mcp-agent/core';
import type { Registry } from '../../index.js';
import { repositoriesOf } from '../tenant-store.js';

// Shared by the usage and the quota contract tests.

// 2026-11-23 14:30 UTC: half an hour before the hour's count resets.
export const START = Date.parse('2026-11-23T14:30:00.000Z');

export const usage = (input: number, output: number, cacheRead = 0, cacheWrite = 0) => ({
  inputTokens: input,
  outputTokens: output,
  cacheReadTokens: cacheRead,
  cacheWriteTokens: cacheWrite,
});

/** Records one model response: most usage tests write several, differing only in these. */
export const recordModel = (
  registry: Registry,
  context: AgentContext,
  taskId: string,
  model: string,
  tokens: ReturnType<typeof usage>,
  estimatedCostUsd: number | null,
) =>
  repositoriesOf(registry).usage.recordModel(context, {
    taskId,
    model,
    usage: tokens,
    estimatedCostUsd,
  });

/** Records one tool call to a server. */
export const recordToolCall = (
  registry: Registry,
  context: AgentContext,
  taskId: string,
  server: string,
  ok: boolean,
  durationMs: number,
) => repositoriesOf(registry).usage.recordToolCall(context, { taskId, server, ok, durationMs });
