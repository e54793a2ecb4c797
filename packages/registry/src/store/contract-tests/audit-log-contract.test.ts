import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { createManualClock } from '@mcp-agent/core/testing';
import type { Registry } from '../../index.js';
import { dialects, reportSkippedPostgres } from './dialects.js';
import { repositoriesOf } from '../tenant-store.js';

const DAY = 24 * 3_600_000;
const server = (id: string) => ({
  id,
  transport: 'streamable-http',
  url: `https://${id}.example/mcp`,
});

reportSkippedPostgres();

describe.each(dialects)('the audit log on $name', (dialect) => {
  let registry: Registry;
  const clock = createManualClock(Date.parse('2030-01-01T00:00:00Z'));
  beforeAll(async () => {
    registry = await dialect.open({ auditRetention: { maxPerUser: 5, maxAgeMs: 30 * DAY } });
  }, 60_000);
  afterAll(async () => {
    await registry?.close();
  });

  it('records who added, changed, disabled and removed whose servers, newest first, per tenant', async () => {
    const alice = createContext({ userId: 'audit-alice', clock });
    const bob = createContext({ userId: 'audit-bob', clock });
    await registry.addServer(alice, server('docs'));
    await registry.addServer(alice, { ...server('docs'), url: 'https://docs2.example/mcp' });
    await registry.setServerEnabled(alice, 'docs', false);
    await registry.removeServer(alice, 'docs');
    await registry.addServer(bob, server('mail'));
    const entries = await repositoriesOf(registry).audit.list(alice);
    expect(entries.map((e) => [e.action, e.serverId, e.actor])).toEqual([
      ['server.removed', 'docs', 'audit-alice'],
      ['server.disabled', 'docs', 'audit-alice'],
      ['server.updated', 'docs', 'audit-alice'],
      ['server.added', 'docs', 'audit-alice'],
    ]);
    expect(entries[3]).toMatchObject({
      userId: 'audit-alice',
      detail: { transport: 'streamable-http' },
      requestId: alice.requestId,
      at: '2030-01-01T00:00:00.000Z',
    });
    // A tenant sees only its own; the operator reads anyone's, page by page.
    expect((await repositoriesOf(registry).audit.list(bob)).map((e) => e.action)).toEqual([
      'server.added',
    ]);
    const [newest, next] = await repositoriesOf(registry).audit.forOperator('audit-alice', {
      limit: 2,
    });
    expect(
      (await repositoriesOf(registry).audit.forOperator('audit-alice', { before: next?.seq })).map(
        (e) => e.action,
      ),
    ).toEqual(['server.updated', 'server.added']);
    expect(newest?.action).toBe('server.removed');
    // Nothing secret is recorded: no URL, no header.
    expect(JSON.stringify(entries)).not.toContain('example');
  });

  it('keeps each tenant within its count and age bounds, counted', async () => {
    const carol = createContext({ userId: 'audit-carol', clock });
    const dave = createContext({ userId: 'audit-dave', clock });
    await repositoriesOf(registry).audit.record(dave, {
      action: 'token.added',
      detail: { tokenId: 't1' },
    });
    for (let i = 0; i < 8; i += 1)
      await repositoriesOf(registry).audit.record(carol, {
        action: 'token.added',
        detail: { tokenId: `t${i}` },
      });
    const kept = await repositoriesOf(registry).audit.list(carol);
    expect(kept).toHaveLength(5);
    expect(kept.map((e) => e.detail.tokenId)).toEqual(['t7', 't6', 't5', 't4', 't3']);
    // Past the age bound: a tenant's next write drops its old entries; prune drops everyone's.
    clock.advance(31 * DAY);
    await repositoriesOf(registry).audit.record(carol, {
      action: 'token.revoked',
      detail: { tokenId: 't7' },
    });
    expect((await repositoriesOf(registry).audit.list(carol)).map((e) => e.action)).toEqual([
      'token.revoked',
    ]);
    expect(await repositoriesOf(registry).audit.list(dave)).toHaveLength(1);
    expect(await repositoriesOf(registry).audit.prune(clock.now())).toBeGreaterThanOrEqual(1);
    expect(await repositoriesOf(registry).audit.list(dave)).toHaveLength(0);
    expect(await repositoriesOf(registry).audit.list(carol)).toHaveLength(1);
  });
});
