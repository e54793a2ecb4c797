import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext, QuotaExceededError, type AgentContext } from '@mcp-agent/core';
import { createManualClock, type ManualClock } from '@mcp-agent/core/testing';
import type { Registry } from '../../index.js';
import { leaseSize } from '../limits/lease-size.js';
import { MAX_CALL_LEASE } from '../repositories/call-leases.js';
import { dialects, reportSkippedPostgres } from './dialects.js';
import { recordModel, START, usage } from './usage-quotas-test-helpers.js';
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

  describe('TEN-11 quotas', () => {
    it('TEN-11 maxCallsPerHour: the call past the limit is refused with the limit, its value and when it resets', async () => {
      await repositoriesOf(registry).quotas.setUserLimits(alice, { maxCallsPerHour: 3 });
      for (let i = 0; i < 3; i++)
        await repositoriesOf(registry).quotas.beforeToolCall(alice, 'github');
      const refusal = await repositoriesOf(registry)
        .quotas.beforeToolCall(alice, 'github')
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
      await expect(repositoriesOf(registry).quotas.check(alice)).rejects.toThrow(
        /maxCallsPerHour is 3/,
      );
      // Another tenant has its own count; the next hour starts a new one.
      await repositoriesOf(registry).quotas.check(bob);
      await repositoriesOf(registry).quotas.beforeToolCall(bob, 'github');
      clock.advance(1_800_000);
      await repositoriesOf(registry).quotas.beforeToolCall(alice, 'github');
      expect(await repositoriesOf(registry).quotas.status(alice)).toMatchObject({
        limits: { maxCallsPerHour: 3 },
        callsThisHour: 1,
        hourResetsAt: '2026-11-23T16:00:00.000Z',
      });
    });

    it('TEN-11 maxTokensPerDay: once the day used it up, the next model request is refused until midnight UTC', async () => {
      await repositoriesOf(registry).quotas.setUserLimits(alice, { maxTokensPerDay: 1_000 });
      await repositoriesOf(registry).quotas.beforeModelRequest(alice);
      const record = (tokens: number) =>
        recordModel(registry, alice, 't', 'm', usage(tokens, 0), null);
      await record(600);
      await repositoriesOf(registry).quotas.beforeModelRequest(alice);
      await record(600);
      const refusal = await repositoriesOf(registry)
        .quotas.beforeModelRequest(alice)
        .catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(QuotaExceededError);
      expect((refusal as QuotaExceededError).details).toEqual({
        limit: 'maxTokensPerDay',
        value: 1_000,
        used: 1_200,
        resetsAt: '2026-11-24T00:00:00.000Z',
        retryAfterMs: 34_200_000,
      });
      await expect(repositoriesOf(registry).quotas.check(alice)).rejects.toThrow(
        /maxTokensPerDay is 1000 \(used 1200 today\)/,
      );
      await repositoriesOf(registry).quotas.beforeModelRequest(bob);
      clock.set(Date.parse('2026-11-24T00:00:00.000Z'));
      await repositoriesOf(registry).quotas.beforeModelRequest(alice);
    });

    it('TEN-11 maxServersPerThread: a thread may call the tools of so many servers, again and again', async () => {
      await repositoriesOf(registry).quotas.setUserLimits(alice, { maxServersPerThread: 2 });
      const call = (server: string, threadId: string) =>
        repositoriesOf(registry).quotas.beforeToolCall(alice, server, { threadId });
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

    it('a server already counted for a thread is not written again on each call', async () => {
      await repositoriesOf(registry).quotas.setUserLimits(alice, { maxServersPerThread: 2 });
      const call = (server: string) =>
        repositoriesOf(registry).quotas.beforeToolCall(alice, server, { threadId: 'th3' });
      const rows = async () =>
        (
          await registry.db
            .selectFrom('quota_thread_servers')
            .select('server_id')
            .where('thread_id', '=', 'th3')
            .execute()
        ).map((row) => row.server_id);
      await call('github');
      expect(await rows()).toEqual(['github']);
      // Took away behind its back: a repeat call of the same server goes to no statement.
      await registry.db.deleteFrom('quota_thread_servers').where('thread_id', '=', 'th3').execute();
      await call('github');
      expect(await rows()).toEqual([]);
      await call('mail');
      expect(await rows()).toEqual(['mail']);
    });

    it("a tenant's own limits replace the deployment's; null returns to them", async () => {
      const [limited, other] = (await dialect.openPair({ quotas: { maxCallsPerHour: 2 } }))
        .registries;
      try {
        expect(await repositoriesOf(limited).quotas.limits(alice)).toEqual({ maxCallsPerHour: 2 });
        await repositoriesOf(limited).quotas.setUserLimits(alice, {
          maxCallsPerHour: 5,
          maxTokensPerDay: 10,
        });
        expect(await repositoriesOf(limited).quotas.limits(alice)).toEqual({
          maxCallsPerHour: 5,
          maxTokensPerDay: 10,
        });
        await repositoriesOf(limited).quotas.setUserLimits(alice, { maxCallsPerHour: null });
        expect(await repositoriesOf(limited).quotas.limits(alice)).toEqual({
          maxCallsPerHour: 2,
          maxTokensPerDay: 10,
        });
        expect(await repositoriesOf(limited).quotas.limits(bob)).toEqual({ maxCallsPerHour: 2 });
        // The other process reads the same row (its cache is empty).
        expect(await repositoriesOf(other).quotas.userLimits(alice)).toMatchObject({
          maxTokensPerDay: 10,
        });
        await expect(
          repositoriesOf(limited).quotas.setUserLimits(alice, { maxCallsPerHour: -1 }),
        ).rejects.toThrow(/maxCallsPerHour/);
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
        await repositoriesOf(a).quotas.setUserLimits(carol, { maxCallsPerHour: 1_000 });
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
        // leaseSize of what was left, here at most leaseSize(25, 32) - 1 = 2).
        const calls = await outcomes(
          Array.from({ length: 40 }, (_, i) =>
            repositoriesOf(i % 2 === 0 ? a : b).quotas.beforeToolCall(alice, 'github'),
          ),
        );
        const passed = calls.filter((o) => o === 'ok').length;
        expect(passed).toBeLessThanOrEqual(25);
        expect(passed).toBeGreaterThanOrEqual(25 - (leaseSize(25, MAX_CALL_LEASE) - 1));
        expect(calls.filter((o) => o instanceof QuotaExceededError)).toHaveLength(40 - passed);
        // Once both return what they leased and did not spend, the count is what passed.
        await Promise.all([repositoriesOf(a).quotas.release(), repositoriesOf(b).quotas.release()]);
        expect((await repositoriesOf(a).quotas.status(alice)).callsThisHour).toBe(passed);
        // 1,100 calls racing a limit of 1,000: the same bounds, with more in flight.
        const many = await outcomes(
          Array.from({ length: 1_100 }, (_, i) =>
            repositoriesOf(i % 2 === 0 ? a : b).quotas.beforeToolCall(carol, 'github'),
          ),
        );
        const manyPassed = many.filter((o) => o === 'ok').length;
        expect(manyPassed).toBeLessThanOrEqual(1_000);
        expect(manyPassed).toBeGreaterThanOrEqual(1_000 - (leaseSize(1_000, MAX_CALL_LEASE) - 1));
        await Promise.all([repositoriesOf(a).quotas.release(), repositoriesOf(b).quotas.release()]);
        expect((await repositoriesOf(b).quotas.status(carol)).callsThisHour).toBe(manyPassed);
        // Ten servers at once in one thread: exactly 3 are counted.
        const servers = await outcomes(
          Array.from({ length: 10 }, (_, i) =>
            repositoriesOf(i % 2 === 0 ? a : b).quotas.beforeToolCall(bob, `server${i}`, {
              threadId: 'th',
            }),
          ),
        );
        expect(servers.filter((o) => o === 'ok')).toHaveLength(3);
        // Tokens: eight callers (four per registry) each check, then spend 150, until refused.
        const spender = async (registry: Registry) => {
          for (;;) {
            try {
              await repositoriesOf(registry).quotas.beforeModelRequest(alice);
            } catch (error) {
              if (error instanceof QuotaExceededError) return;
              throw error;
            }
            await recordModel(registry, alice, 'race', 'm', usage(100, 50), null);
          }
        };
        await Promise.all(Array.from({ length: 8 }, (_, i) => spender(i % 2 === 0 ? a : b)));
        const { tokensToday } = await repositoriesOf(b).quotas.status(alice);
        expect(tokensToday).toBeGreaterThanOrEqual(1_000);
        // Past the limit by at most one request per caller in flight.
        expect(tokensToday).toBeLessThanOrEqual(1_000 + 8 * 150);
        await expect(repositoriesOf(a).quotas.beforeModelRequest(alice)).rejects.toBeInstanceOf(
          QuotaExceededError,
        );
        await expect(repositoriesOf(b).quotas.beforeModelRequest(alice)).rejects.toBeInstanceOf(
          QuotaExceededError,
        );
      } finally {
        await pair.close();
      }
    });
  });
});
