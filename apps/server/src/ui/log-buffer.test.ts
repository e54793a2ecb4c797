import { describe, expect, it } from 'vitest';
import { createLogger } from '@mcp-agent/core';
import { LogBuffer, type LogEntry } from './log-buffer.js';

describe('LogBuffer', () => {
  it('keeps the newest lines, passes every line on, and shows a user only their own', () => {
    const forwarded: string[] = [];
    const logs = new LogBuffer({
      forward: { write: (line: string) => forwarded.push(line) },
      limits: { maxEntries: 5 },
    });
    const logger = createLogger({ level: 'debug', destination: logs });
    for (let i = 0; i < 8; i++)
      logger.child({ userId: i % 2 === 0 ? 'ann' : 'ben' }).info({ i }, `line ${i}`);
    logger.warn({ token: 'sk-abcdefghijklmnopqrstuvwx' }, 'process-wide');
    expect(forwarded).toHaveLength(9);
    expect(logs.stats.entries).toBe(5);
    expect(logs.recent({ userId: 'ann', minLevel: 'debug' }).map((e) => e.msg)).toEqual([
      'line 4',
      'line 6',
    ]);
    // The operator reads every line; a line bound to no user is the operator's only.
    const all = logs.recent({ userId: undefined, minLevel: 'debug' });
    expect(all.map((e) => e.msg)).toEqual(['line 4', 'line 5', 'line 6', 'line 7', 'process-wide']);
    expect(logs.recent({ userId: undefined, minLevel: 'warn' })).toHaveLength(1);
    // Lines come already redacted by the logger.
    expect(all.at(-1)?.fields).toContain('[redacted]');
    expect(all.at(-1)?.fields).not.toContain('sk-abc');
  });

  it('delivers new lines to live readers by user and level, and bounds the readers', () => {
    const logs = new LogBuffer({ limits: { maxReaders: 3, maxReadersPerUser: 2 } });
    const logger = createLogger({ level: 'debug', destination: logs });
    const seen: LogEntry[] = [];
    const stop = logs.subscribe({ userId: 'ann', minLevel: 'info' }, (entry) => seen.push(entry));
    logs.subscribe({ userId: 'ann', minLevel: 'debug' }, () => undefined);
    expect(() => logs.subscribe({ userId: 'ann', minLevel: 'info' }, () => undefined)).toThrow(
      /at most 2 per user/,
    );
    logs.subscribe({ userId: 'ben', minLevel: 'info' }, () => undefined);
    expect(() => logs.subscribe({ userId: 'cid', minLevel: 'info' }, () => undefined)).toThrow(
      /Too many live log readers/,
    );
    logger.child({ userId: 'ann' }).debug({}, 'quiet');
    logger.child({ userId: 'ann' }).info({}, 'hello');
    logger.child({ userId: 'ben' }).info({}, 'not yours');
    expect(seen.map((e) => e.msg)).toEqual(['hello']);
    stop();
    expect(logs.stats.readers).toBe(2);
  });
});
