import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext, type AgentContext } from '@mcp-agent/core';
import { createManualClock, type ManualClock } from '@mcp-agent/core/testing';
import { randomBytes } from 'node:crypto';
import { Registry } from '../../index.js';
import { parseSecretKey } from '../vault/secret-key.js';
import { dialects, reportSkippedPostgres } from './dialects.js';
import { TenantScopeRecorder } from './tenant-scope-check.js';
import { recordModel, recordToolCall, START, usage } from './usage-quotas-test-helpers.js';
import { repositoriesOf } from '../tenant-store.js';

reportSkippedPostgres();

describe.each(dialects)('usage and quotas on $name', (dialect) => {
  let registry: Registry;
  let clock: ManualClock;
  let alice: AgentContext;
  let bob: AgentContext;
  beforeEach(async () => {
    registry = await dialect.open();
    clock = createManualClock(START);
    alice = createContext({ userId: 'alice', clock });
    bob = createContext({ userId: 'bob', clock });
  });
  afterEach(async () => {
    await registry.close();
  });

  describe('usage', () => {
    it('adds each response to its task and model, and each tool call to its server', async () => {
      const { usage: repo } = repositoriesOf(registry);
      await recordModel(
        registry,
        alice,
        't1',
        'claude-sonnet-5-5',
        usage(1_000, 200, 5_000, 300),
        0.00475,
      );
      await recordModel(registry, alice, 't1', 'claude-sonnet-5-5', usage(500, 100), 0.002);
      await recordToolCall(registry, alice, 't1', 'github', true, 40);
      await recordToolCall(registry, alice, 't1', 'github', false, 12.6);
      await recordToolCall(registry, alice, 't1', 'mail', true, 5);
      expect(await repo.task(alice, 't1')).toEqual({
        models: [
          {
            model: 'claude-sonnet-5-5',
            requests: 2,
            inputTokens: 1_500,
            outputTokens: 300,
            cacheReadTokens: 5_000,
            cacheWriteTokens: 300,
            estimatedCostUsd: 0.00675,
          },
        ],
        servers: [
          { server: 'github', calls: 2, errors: 1, durationMs: 53 },
          { server: 'mail', calls: 1, errors: 0, durationMs: 5 },
        ],
      });
      // Another tenant sees none of it, even by task id.
      expect(await repo.task(bob, 't1')).toEqual({ models: [], servers: [] });
      expect((await repo.summary(bob)).totals.requests).toBe(0);
    });

    it('tool calls are written behind and a clean close writes them: nothing is lost', async () => {
      const second = await dialect.openPair({});
      try {
        const [writer, reader] = second.registries;
        for (let i = 0; i < 5; i += 1)
          await recordToolCall(writer, alice, 'behind', 'github', i !== 0, 10);
        // Another process sees nothing until this one writes (within USAGE_FLUSH_MS)…
        await repositoriesOf(writer).usage.flush();
        expect((await repositoriesOf(reader).usage.task(alice, 'behind')).servers).toEqual([
          { server: 'github', calls: 5, errors: 1, durationMs: 50 },
        ]);
        // …and what waits at close is written before the database closes.
        await recordToolCall(writer, alice, 'behind', 'github', true, 10);
        await writer.close();
        expect((await repositoriesOf(reader).usage.task(alice, 'behind')).servers).toEqual([
          { server: 'github', calls: 6, errors: 1, durationMs: 60 },
        ]);
      } finally {
        await second.close();
      }
    });

    it('sums a tenant by day, server and model; an unpriced model is named, not costed', async () => {
      const { usage: repo } = repositoriesOf(registry);
      await recordModel(registry, alice, 't1', 'gpt-6.1-sol', usage(2_000, 100), 0.005);
      await recordToolCall(registry, alice, 't1', 'github', true, 10);
      clock.advance(24 * 3_600_000);
      await recordModel(registry, alice, 't2', 'local-llama', usage(700, 70), null);
      await recordModel(registry, alice, 't2', 'gpt-6.1-sol', usage(1_000, 50), 0.0025);
      await recordToolCall(registry, alice, 't2', 'github', false, 30);
      await recordModel(registry, bob, 't3', 'gpt-6.1-sol', usage(9_999, 999), 1);
      const summary = await repo.summary(alice, { days: 7 });
      expect(summary).toMatchObject({ from: '2026-11-18', to: '2026-11-24' });
      expect(summary.days).toEqual([
        expect.objectContaining({
          day: '2026-11-23',
          requests: 1,
          inputTokens: 2_000,
          toolCalls: 1,
          toolErrors: 0,
          estimatedCostUsd: 0.005,
        }),
        expect.objectContaining({
          day: '2026-11-24',
          requests: 2,
          inputTokens: 1_700,
          outputTokens: 120,
          toolCalls: 1,
          toolErrors: 1,
          estimatedCostUsd: 0.0025,
        }),
      ]);
      expect(summary.totals).toMatchObject({
        requests: 3,
        inputTokens: 3_700,
        toolCalls: 2,
        toolDurationMs: 40,
        estimatedCostUsd: 0.0075,
      });
      expect(summary.servers).toEqual([{ server: 'github', calls: 2, errors: 1, durationMs: 40 }]);
      expect(summary.models).toEqual([
        expect.objectContaining({ model: 'gpt-6.1-sol', requests: 2, estimatedCostUsd: 0.0075 }),
        expect.objectContaining({ model: 'local-llama', requests: 1, estimatedCostUsd: null }),
      ]);
      expect(summary.unpricedModels).toEqual(['local-llama']);
      // A one-day window ends today and leaves yesterday out.
      expect((await repo.summary(alice, { days: 1 })).totals.requests).toBe(2);
    });
  });

  it('TEN-02 every query of usage and quotas is scoped to its tenant', async () => {
    const key = randomBytes(32).toString('base64');
    const base = await dialect.open({ env: { MCP_AGENT_SECRET_KEY: key } });
    const recorder = new TenantScopeRecorder();
    const scoped = new Registry({
      db: base.db.withPlugin(recorder),
      keyring: { current: parseSecretKey(key, 'test'), previous: [] },
      quotas: { maxCallsPerHour: 100, maxTokensPerDay: 100_000, maxServersPerThread: 5 },
    });
    try {
      await repositoriesOf(scoped).quotas.setUserLimits(alice, { maxCallsPerHour: 50 });
      await repositoriesOf(scoped).quotas.userLimits(alice);
      await repositoriesOf(scoped).quotas.beforeToolCall(alice, 'github', { threadId: 'th' });
      await repositoriesOf(scoped).quotas.beforeModelRequest(alice);
      await repositoriesOf(scoped).quotas.addTokens(alice, 10);
      await repositoriesOf(scoped).quotas.check(alice);
      await repositoriesOf(scoped).quotas.status(alice);
      await recordModel(scoped, alice, 't', 'm', usage(1, 1), 0);
      await recordToolCall(scoped, alice, 't', 'c', true, 1);
      await repositoriesOf(scoped).usage.task(alice, 't');
      await repositoriesOf(scoped).usage.summary(alice);
      expect(recorder.statements.length).toBeGreaterThan(10);
      for (const statement of recorder.statements) {
        expect(statement.problems, JSON.stringify(statement)).toEqual([]);
        for (const tenant of statement.tenants) expect(tenant).toBe('alice');
      }
    } finally {
      await scoped.close();
      await base.close();
    }
  });
});
