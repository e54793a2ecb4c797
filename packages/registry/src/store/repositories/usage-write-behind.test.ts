import { describe, expect, it } from 'vitest';
import { ToolCallWriteBehind, type ToolCallTally } from './usage-write-behind.js';

const call = (taskId: string, errors = 0) => ({
  userId: 'alice',
  taskId,
  server: 'github',
  day: Date.parse('2026-11-27') / 86_400_000,
  errors,
  durationMs: 10,
  at: Date.parse('2026-11-27T01:00:00.000Z'),
});

describe('usage written behind', () => {
  it('adds calls up per row and writes them in one batch after flushMs, never during the call', async () => {
    const batches: ToolCallTally[][] = [];
    const buffer = new ToolCallWriteBehind(async (rows) => void batches.push([...rows]), {
      flushMs: 20,
    });
    expect(buffer.add(call('t1'))).toBeUndefined();
    expect(buffer.add(call('t1', 1))).toBeUndefined();
    expect(buffer.add(call('t2'))).toBeUndefined();
    expect(batches).toEqual([]);
    await expect.poll(() => batches.length).toBe(1);
    expect(batches[0]).toEqual([
      expect.objectContaining({ taskId: 't1', calls: 2, errors: 1, durationMs: 20 }),
      expect.objectContaining({ taskId: 't2', calls: 1, errors: 0, durationMs: 10 }),
    ]);
    expect(buffer.pending).toBe(0);
  });

  it('is bounded: at maxPending rows the call that adds one waits for the write', async () => {
    let written = 0;
    const buffer = new ToolCallWriteBehind(async (rows) => void (written += rows.length), {
      flushMs: 60_000,
      maxPending: 3,
    });
    expect(buffer.add(call('a'))).toBeUndefined();
    expect(buffer.add(call('b'))).toBeUndefined();
    const waited = buffer.add(call('c'));
    expect(waited).toBeInstanceOf(Promise);
    await waited;
    expect(written).toBe(3);
    expect(buffer.pending).toBe(0);
  });

  it('flush writes everything now; a failed write keeps its rows, added to what came since', async () => {
    const written: ToolCallTally[] = [];
    let fail = true;
    const buffer = new ToolCallWriteBehind(
      async (rows) => {
        if (fail) throw new Error('database down');
        written.push(...rows);
      },
      { flushMs: 60_000 },
    );
    buffer.add(call('t1'));
    await expect(buffer.flush()).rejects.toThrow('database down');
    buffer.add(call('t1'));
    fail = false;
    await buffer.flush();
    expect(written).toEqual([expect.objectContaining({ taskId: 't1', calls: 2, durationMs: 20 })]);
  });
});
