import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext, QuotaExceededError, type AgentContext } from '@mcp-agent/core';
import { createManualClock, type ManualClock } from '@mcp-agent/core/testing';
import { randomBytes } from 'node:crypto';
import { Registry } from '../../index.js';
import { leaseSize } from '../repositories/call-leases.js';
import { parseSecretKey } from '../vault/secret-key.js';
import { dialects, reportSkippedPostgres } from './dialects.js';
import { TenantScopeRecorder } from './tenant-scope-check.js';

// 2026-11-23 14:30 UTC: half an hour before the hour's count resets.
const START = Date.parse('2026-11-23T14:30:00.000Z');
const usage = (input: number, output: number, cacheRead = 0, cacheWrite = 0) => ({
  inputTokens: input,
  outputTokens: output,
  cacheReadTokens: cacheRead,
  cacheWriteTokens: cacheWrite,
});

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
    it('adds each response to its task and model, and each tool call to its connector', async () => {
      const { usage: repo } = registry;
      await repo.recordModel(alice, {
        taskId: 't1',
        model: 'claude-sonnet-5-5',
        usage: usage(1_000, 200, 5_000, 300),
        estimatedCostUsd: 0.00475,
      });
      await repo.recordModel(alice, {
        taskId: 't1',
        model: 'claude-sonnet-5-5',
        usage: usage(500, 100),
        estimatedCostUsd: 0.002,
      });
      await repo.recordToolCall(alice, {
        taskId: 't1',
        connector: 'github',
        ok: true,
        durationMs: 40,
      });
      await repo.recordToolCall(alice, {
        taskId: 't1',
        connector: 'github',
        ok: false,
        durationMs: 12.6,
      });
      await repo.recordToolCall(alice, {
        taskId: 't1',
        connector: 'mail',
        ok: true,
        durationMs: 5,
      });
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
        connectors: [
          { connector: 'github', calls: 2, errors: 1, durationMs: 53 },
          { connector: 'mail', calls: 1, errors: 0, durationMs: 5 },
        ],
      });
      // Another tenant sees none of it, even by task id.
      expect(await repo.task(bob, 't1')).toEqual({ models: [], connectors: [] });
      expect((await repo.summary(bob)).totals.requests).toBe(0);
    });

    it('tool calls are written behind and a clean close writes them: nothing is lost', async () => {
      const second = await dialect.openPair({});
      try {
        const [writer, reader] = second.registries;
        for (let i = 0; i < 5; i += 1)
          await writer.usage.recordToolCall(alice, {
            taskId: 'behind',
            connector: 'github',
            ok: i !== 0,
            durationMs: 10,
          });
        // Another process sees nothing until this one writes (within USAGE_FLUSH_MS)…
        await writer.usage.flush();
        expect((await reader.usage.task(alice, 'behind')).connectors).toEqual([
          { connector: 'github', calls: 5, errors: 1, durationMs: 50 },
        ]);
        // …and what waits at close is written before the database closes.
        await writer.usage.recordToolCall(alice, {
          taskId: 'behind',
          connector: 'github',
          ok: true,
          durationMs: 10,
        });
        await writer.close();
        expect((await reader.usage.task(alice, 'behind')).connectors).toEqual([
          { connector: 'github', calls: 6, errors: 1, durationMs: 60 },
        ]);
      } finally {
        await second.close();
      }
    });

    it('sums a tenant by day, connector and model; an unpriced model is named, not costed', async () => {
      const { usage: repo } = registry;
      await repo.recordModel(alice, {
        taskId: 't1',
        model: 'gpt-6.1-sol',
        usage: usage(2_000, 100),
        estimatedCostUsd: 0.005,
      });
      await repo.recordToolCall(alice, {
        taskId: 't1',
        connector: 'github',
        ok: true,
        durationMs: 10,
      });
      clock.advance(24 * 3_600_000);
      await repo.recordModel(alice, {
        taskId: 't2',
        model: 'local-llama',
        usage: usage(700, 70),
        estimatedCostUsd: null,
      });
      await repo.recordModel(alice, {
        taskId: 't2',
        model: 'gpt-6.1-sol',
        usage: usage(1_000, 50),
        estimatedCostUsd: 0.0025,
      });
      await repo.recordToolCall(alice, {
        taskId: 't2',
        connector: 'github',
        ok: false,
        durationMs: 30,
      });
      await repo.recordModel(bob, {
        taskId: 't3',
        model: 'gpt-6.1-sol',
        usage: usage(9_999, 999),
        estimatedCostUsd: 1,
      });
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
      expect(summary.connectors).toEqual([
        { connector: 'github', calls: 2, errors: 1, durationMs: 40 },
      ]);
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
      await scoped.quotas.setUserLimits(alice, { maxCallsPerHour: 50 });
      await scoped.quotas.userLimits(alice);
      await scoped.quotas.beforeToolCall(alice, 'github', { threadId: 'th' });
      await scoped.quotas.beforeModelRequest(alice);
      await scoped.quotas.addTokens(alice, 10);
      await scoped.quotas.check(alice);
      await scoped.quotas.status(alice);
      await scoped.usage.recordModel(alice, {
        taskId: 't',
        model: 'm',
        usage: usage(1, 1),
        estimatedCostUsd: 0,
      });
      await scoped.usage.recordToolCall(alice, {
        taskId: 't',
        connector: 'c',
        ok: true,
        durationMs: 1,
      });
      await scoped.usage.task(alice, 't');
      await scoped.usage.summary(alice);
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

  describe('TEN-11 quotas', () => {
    it('TEN-11 maxCallsPerHour: the call past the limit is refused with the limit, its value and when it resets', async () => {
      await registry.quotas.setUserLimits(alice, { maxCallsPerHour: 3 });
      for (let i = 0; i < 3; i++) await registry.quotas.beforeToolCall(alice, 'github');
      const refusal = await registry.quotas
        .beforeToolCall(alice, 'github')
        .catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(QuotaExceededError);
      expect((refusal as QuotaExceededError).message).toBe(
        'Quota reached: maxCallsPerHour is 3 (used 3 this hour). It resets at 2026-11-23T15:00:00.000Z (in 30 min).',
      );
      expect((refusal as QuotaExceededError).details).toEqual({
        limit: 'maxCallsPerHour',
        value: 3,
        used: 3,
        resetsAt: '2026-11-23T15:00:00.000Z',
        retryAfterMs: 1_800_000,
      });
      // check() refuses the same without counting.
      await expect(registry.quotas.check(alice)).rejects.toThrow(/maxCallsPerHour is 3/);
      // Another tenant has its own count; the next hour starts a new one.
      await registry.quotas.check(bob);
      await registry.quotas.beforeToolCall(bob, 'github');
      clock.advance(1_800_000);
      await registry.quotas.beforeToolCall(alice, 'github');
      expect(await registry.quotas.status(alice)).toMatchObject({
        limits: { maxCallsPerHour: 3 },
        callsThisHour: 1,
        hourResetsAt: '2026-11-23T16:00:00.000Z',
      });
    });

    it('TEN-11 maxTokensPerDay: once the day used it up, the next model request is refused until midnight UTC', async () => {
      await registry.quotas.setUserLimits(alice, { maxTokensPerDay: 1_000 });
      await registry.quotas.beforeModelRequest(alice);
      const record = (tokens: number) =>
        registry.usage.recordModel(alice, {
          taskId: 't',
          model: 'm',
          usage: usage(tokens, 0),
          estimatedCostUsd: null,
        });
      await record(600);
      await registry.quotas.beforeModelRequest(alice);
      await record(600);
      const refusal = await registry.quotas
        .beforeModelRequest(alice)
        .catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(QuotaExceededError);
      expect((refusal as QuotaExceededError).details).toEqual({
        limit: 'maxTokensPerDay',
        value: 1_000,
        used: 1_200,
        resetsAt: '2026-11-24T00:00:00.000Z',
        retryAfterMs: 34_200_000,
      });
      await expect(registry.quotas.check(alice)).rejects.toThrow(
        /maxTokensPerDay is 1000 \(used 1200 today\)/,
      );
      await registry.quotas.beforeModelRequest(bob);
      clock.set(Date.parse('2026-11-24T00:00:00.000Z'));
      await registry.quotas.beforeModelRequest(alice);
    });

    it('TEN-11 maxServersPerThread: a thread may call the tools of so many servers, again and again', async () => {
      await registry.quotas.setUserLimits(alice, { maxServersPerThread: 2 });
      const call = (server: string, threadId: string) =>
        registry.quotas.beforeToolCall(alice, server, { threadId });
      await call('github', 'th1');
      await call('mail', 'th1');
      await call('github', 'th1');
      const refusal = await call('slack', 'th1').catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(QuotaExceededError);
      expect((refusal as Error).message).toMatch(
        /maxServersPerThread is 2, and this thread already used 2 other servers; "slack" would be one more\. It does not reset by itself: start a new thread/,
      );
      expect((refusal as QuotaExceededError).details).toMatchObject({
        limit: 'maxServersPerThread',
        value: 2,
        resetsAt: null,
      });
      // The refused server was not counted; another thread starts from none.
      await call('mail', 'th1');
      await call('slack', 'th2');
    });

    it("a tenant's own limits replace the deployment's; null returns to them", async () => {
      const [limited, other] = (await dialect.openPair({ quotas: { maxCallsPerHour: 2 } }))
        .registries;
      try {
        expect(await limited.quotas.limits(alice)).toEqual({ maxCallsPerHour: 2 });
        await limited.quotas.setUserLimits(alice, { maxCallsPerHour: 5, maxTokensPerDay: 10 });
        expect(await limited.quotas.limits(alice)).toEqual({
          maxCallsPerHour: 5,
          maxTokensPerDay: 10,
        });
        await limited.quotas.setUserLimits(alice, { maxCallsPerHour: null });
        expect(await limited.quotas.limits(alice)).toEqual({
          maxCallsPerHour: 2,
          maxTokensPerDay: 10,
        });
        expect(await limited.quotas.limits(bob)).toEqual({ maxCallsPerHour: 2 });
        // The other process reads the same row (its cache is empty).
        expect(await other.quotas.userLimits(alice)).toMatchObject({ maxTokensPerDay: 10 });
        await expect(limited.quotas.setUserLimits(alice, { maxCallsPerHour: -1 })).rejects.toThrow(
          /maxCallsPerHour/,
        );
      } finally {
        await limited.close();
        await other.close();
      }
    });

    it('TEN-11 two registries on one database racing past the limits: calls never past the limit and short of it by at most one lease, servers exactly, tokens within one request each', async () => {
      const pair = await dialect.openPair({
        quotas: { maxCallsPerHour: 25, maxTokensPerDay: 1_000, maxServersPerThread: 3 },
      });
      const carol = createContext({ userId: 'carol', clock });
      try {
        const [a, b] = pair.registries;
        await a.quotas.setUserLimits(carol, { maxCallsPerHour: 1_000 });
        const outcomes = (promises: Promise<unknown>[]) =>
          Promise.all(
            promises.map((p) =>
              p.then(
                () => 'ok',
                (e: unknown) => e,
              ),
            ),
          );
        // 40 calls at once, 20 through each registry, each taking leased blocks: never more
        // than 25 pass; fewer by at most the other process's unspent block (the stated slack:
        // leaseSize of what was left, here at most leaseSize(25) - 1 = 2).
        const calls = await outcomes(
          Array.from({ length: 40 }, (_, i) =>
            (i % 2 === 0 ? a : b).quotas.beforeToolCall(alice, 'github'),
          ),
        );
        const passed = calls.filter((o) => o === 'ok').length;
        expect(passed).toBeLessThanOrEqual(25);
        expect(passed).toBeGreaterThanOrEqual(25 - (leaseSize(25) - 1));
        expect(calls.filter((o) => o instanceof QuotaExceededError)).toHaveLength(40 - passed);
        // Once both return what they leased and did not spend, the count is what passed.
        await Promise.all([a.quotas.release(), b.quotas.release()]);
        expect((await a.quotas.status(alice)).callsThisHour).toBe(passed);
        // 1,100 calls racing a limit of 1,000: the same bounds, with more in flight.
        const many = await outcomes(
          Array.from({ length: 1_100 }, (_, i) =>
            (i % 2 === 0 ? a : b).quotas.beforeToolCall(carol, 'github'),
          ),
        );
        const manyPassed = many.filter((o) => o === 'ok').length;
        expect(manyPassed).toBeLessThanOrEqual(1_000);
        expect(manyPassed).toBeGreaterThanOrEqual(1_000 - (leaseSize(1_000) - 1));
        await Promise.all([a.quotas.release(), b.quotas.release()]);
        expect((await b.quotas.status(carol)).callsThisHour).toBe(manyPassed);
        // Ten servers at once in one thread: exactly 3 are counted.
        const servers = await outcomes(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 === 0 ? a : b).quotas.beforeToolCall(bob, `server${i}`, { threadId: 'th' }),
          ),
        );
        expect(servers.filter((o) => o === 'ok')).toHaveLength(3);
        // Tokens: eight callers (four per registry) each check, then spend 150, until refused.
        const spender = async (registry: Registry) => {
          for (;;) {
            try {
              await registry.quotas.beforeModelRequest(alice);
            } catch (error) {
              if (error instanceof QuotaExceededError) return;
              throw error;
            }
            await registry.usage.recordModel(alice, {
              taskId: 'race',
              model: 'm',
              usage: usage(100, 50),
              estimatedCostUsd: null,
            });
          }
        };
        await Promise.all(Array.from({ length: 8 }, (_, i) => spender(i % 2 === 0 ? a : b)));
        const { tokensToday } = await b.quotas.status(alice);
        expect(tokensToday).toBeGreaterThanOrEqual(1_000);
        // Past the limit by at most one request per caller in flight.
        expect(tokensToday).toBeLessThanOrEqual(1_000 + 8 * 150);
        await expect(a.quotas.beforeModelRequest(alice)).rejects.toBeInstanceOf(QuotaExceededError);
        await expect(b.quotas.beforeModelRequest(alice)).rejects.toBeInstanceOf(QuotaExceededError);
      } finally {
        await pair.close();
      }
    });
  });
});
