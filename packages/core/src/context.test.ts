import { describe, expect, it } from 'vitest';
import { createContext, defineSlot } from './context.js';
import { InvalidArgumentsError } from './errors.js';
import { createManualClock, createMemoryLogger } from './testing/index.js';

describe('createContext', () => {
  it('takes a canonical user id as it is (a look-alike is refused), makes a request id, binds the logger', () => {
    expect(() => createContext({ userId: ' alice ' })).toThrow(InvalidArgumentsError);
    const memory = createMemoryLogger();
    const ctx = createContext({ userId: 'alice', threadId: 't1', logger: memory.logger });
    expect(ctx.userId).toBe('alice');
    expect(ctx.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(ctx.threadId).toBe('t1');
    ctx.logger.info({ step: 1 }, 'hello');
    expect(memory.lines()[0]).toMatchObject({
      userId: 'alice',
      requestId: ctx.requestId,
      threadId: 't1',
      step: 1,
      msg: 'hello',
    });
  });

  it("makes the logger's child once, when first used, for the context and those derived", () => {
    const { memory, parent, children } = countingChildren();
    const ctx = createContext({ userId: 'alice', logger: parent });
    const derived = ctx.with(defineSlot<number>('n'), 1);
    expect(children()).toBe(0);
    derived.logger.info({}, 'one');
    ctx.logger.info({}, 'two');
    expect(children()).toBe(1);
    expect(memory.lines().map((line) => [line.msg, line.requestId])).toEqual([
      ['one', ctx.requestId],
      ['two', ctx.requestId],
    ]);
  });

  it('binds its logger only for a line the level in force writes', () => {
    const { memory, parent, children } = countingChildren();
    const warnings = { ...parent, isLevelEnabled: (level: string) => /warn|error/.test(level) };
    const ctx = createContext({ userId: 'alice', logger: warnings });
    ctx.logger.debug({ step: 1 }, 'dropped');
    ctx.logger.info({ step: 2 });
    expect(children()).toBe(0);
    expect(ctx.logger.isLevelEnabled?.('debug')).toBe(false);
    ctx.logger.warn({ step: 3 }, 'kept');
    ctx.logger.error({ step: 4 });
    expect(children()).toBe(1);
    expect(memory.lines().map((line) => [line.step, line.requestId])).toEqual([
      [3, ctx.requestId],
      [4, ctx.requestId],
    ]);
  });

  it('is its own task unless given one, which derived contexts keep', () => {
    const own = createContext({ userId: 'alice' });
    expect(own.taskId).toBe(own.requestId);
    const shared = createContext({ userId: 'alice', taskId: 'gateway-1' });
    expect(shared.taskId).toBe('gateway-1');
    expect(shared.requestId).not.toBe('gateway-1');
    const derived = shared.with(defineSlot<number>('n'), 1);
    expect(derived.taskId).toBe('gateway-1');
    // Its request id, written when first read, is the same wherever it is read first.
    expect(derived.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(shared.requestId).toBe(derived.requestId);
    expect(createContext({ userId: 'a', taskId: 't', requestId: 'r1' }).requestId).toBe('r1');
    expect(() => createContext({ userId: 'a', taskId: '' })).toThrow(/task id/);
    expect(() => createContext({ userId: 'a', taskId: 't'.repeat(201) })).toThrow(/task id/);
  });

  it('rejects a bad user id or an empty thread id', () => {
    expect(() => createContext({ userId: '' })).toThrow(InvalidArgumentsError);
    expect(() => createContext({ userId: 'a', threadId: ' ' })).toThrow(/thread id/);
  });

  it('is immutable, and slots derive new contexts', () => {
    const pool = defineSlot<{ size: number }>('pool');
    const ctx = createContext({ userId: 'a', requestId: 'r1' });
    expect(Object.isFrozen(ctx)).toBe(true);
    expect(() => {
      (ctx as { userId: string }).userId = 'b';
    }).toThrow(TypeError);
    expect(ctx.find(pool)).toBeUndefined();
    expect(() => ctx.get(pool)).toThrow(/no "pool"/);
    const withPool = ctx.with(pool, { size: 3 });
    expect(withPool.get(pool).size).toBe(3);
    expect(withPool.requestId).toBe('r1');
    expect(ctx.find(pool)).toBeUndefined();
  });

  it('carries the caller signal and clock', () => {
    const controller = new AbortController();
    const clock = createManualClock(1000);
    const ctx = createContext({ userId: 'a', signal: controller.signal, clock });
    controller.abort();
    expect(ctx.signal.aborted).toBe(true);
    clock.advance(5);
    expect(ctx.clock.now()).toBe(1005);
  });

  it('two slots with the same name stay distinct', () => {
    const a = defineSlot<string>('x');
    const b = defineSlot<string>('x');
    const ctx = createContext({ userId: 'u' }).with(a, 'A');
    expect(ctx.find(b)).toBeUndefined();
  });
});

// A memory logger whose children are counted.
function countingChildren() {
  const memory = createMemoryLogger();
  let children = 0;
  const parent = {
    ...memory.logger,
    child: (bindings: Record<string, unknown>) => {
      children += 1;
      return memory.logger.child(bindings);
    },
  };
  return { memory, parent, children: () => children };
}
