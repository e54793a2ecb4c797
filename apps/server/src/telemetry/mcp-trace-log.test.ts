import { describe, expect, it } from 'vitest';
import { McpTraceLog } from './mcp-trace-log.js';

function harness(limits: { maxEntries: number; maxPerUser: number }) {
  const log = new McpTraceLog(limits);
  let requests = 0;
  // A gateway request and the call it made to a server, as the gateway and the pool tell it.
  const request = (userId: string, tool: string) => {
    const requestId = `request-${++requests}`;
    const common = { userId, requestId, method: 'tools/call', at: Date.now() };
    log.exchanged({
      ...common,
      direction: 'out',
      name: 'list_issues',
      server: 'github',
      durationMs: 1.23456,
      outcome: 'ok',
    });
    log.exchanged({ ...common, direction: 'in', name: tool, durationMs: 2, outcome: 'ok' });
  };
  return { log, request };
}

describe('McpTraceLog', () => {
  it('records the gateway’s incoming requests and the calls they made, per user, bounded', () => {
    const { log, request } = harness({ maxEntries: 6, maxPerUser: 4 });
    request('ann', 'call_tool');
    expect(log.size).toBe(2);
    expect(log.list('ann').map((e) => [e.direction, e.name, e.requestId, e.durationMs])).toEqual([
      ['in', 'call_tool', 'request-1', 2],
      ['out', 'list_issues', 'request-1', 1.23],
    ]);
    expect(log.list('ben')).toEqual([]);
    for (let i = 0; i < 5; i++) request('ann', `search_tools`);
    // Ann holds at most 4.
    expect(log.list('ann')).toHaveLength(4);
    for (let i = 0; i < 2; i++) request('ben', 'describe_tools');
    // 6 in all: Ben's 4 pushed Ann down to 2.
    expect(log.size).toBe(6);
    expect(log.list('ben')).toHaveLength(4);
    expect(log.list('ann')).toHaveLength(2);
    expect(log.list(undefined)).toHaveLength(6);
  });

  it('keeps the newest entries of each user and of all, whatever the order users come in', () => {
    const limits = { maxEntries: 50, maxPerUser: 20 };
    const { log, request } = harness(limits);
    // A plain model of the bounds: the whole history, cut per user, then in all.
    const history: { user: string; tool: string }[] = [];
    const users = ['ann', 'ben', 'cat'];
    for (let i = 0; i < 400; i++) {
      const user = users[(i * 7) % 5 === 0 ? 0 : i % 3] as string;
      request(user, `tool_${i}`);
      history.push({ user, tool: `tool_${i}` });
    }
    const kept: { user: string; tool: string }[] = [];
    const counts = new Map<string, number>();
    for (const item of [...history].reverse()) {
      const held = counts.get(item.user) ?? 0;
      if (held >= limits.maxPerUser / 2 || kept.length >= limits.maxEntries / 2) continue;
      counts.set(item.user, held + 1);
      kept.push(item);
    }
    // Each request is two entries (in and out): the newest of each user, newest first.
    const names = (userId: string | undefined) =>
      log
        .list(userId, 1_000)
        .filter((e) => e.direction === 'in')
        .map((e) => e.name);
    for (const user of users)
      expect(names(user)).toEqual(kept.filter((k) => k.user === user).map((k) => k.tool));
    expect(names(undefined)).toEqual(kept.map((k) => k.tool));
    expect(log.size).toBeLessThanOrEqual(limits.maxEntries);
  });
});
