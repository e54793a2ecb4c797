import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createCheckedContext, createContext, defineSlot } from './context.js';
import { InvalidArgumentsError } from './errors.js';
import { createManualClock, createMemoryLogger } from './testing/index.js';
import { parseUserId } from './user-id.js';
import type * as UserIdModule from './user-id.js';

// The user-id check, counted: the real one, seen through a spy (createContext imports it).
vi.mock('./user-id.js', async (original) => {
  const real = await original<typeof UserIdModule>();
  return { ...real, parseUserId: vi.fn(real.parseUserId) };
});
const checks = vi.mocked(parseUserId);

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

describe('createCheckedContext', () => {
  beforeEach(() => {
    checks.mockClear(); // a block: a function returned from beforeEach would run as a teardown
  });

  it('checks a plain string on every createContext, and a UserId held never again', () => {
    for (let i = 0; i < 3; i += 1) createContext({ userId: 'alice', requestId: `r${i}` });
    expect(checks).toHaveBeenCalledTimes(3);

    checks.mockClear();
    const userId = parseUserId('alice'); // once, as sign-in or a session's start does
    const contexts = Array.from({ length: 5 }, (_, i) =>
      createCheckedContext({ userId, requestId: `r${i}`, taskId: 'session-1' }),
    );
    expect(checks).toHaveBeenCalledTimes(1);
    expect(contexts.map((ctx) => [ctx.userId, ctx.requestId, ctx.taskId])).toEqual(
      [0, 1, 2, 3, 4].map((i) => ['alice', `r${i}`, 'session-1']),
    );
  });

  it('takes only a UserId: a plain string does not compile, and a look-alike never becomes one', () => {
    // @ts-expect-error a plain string is not a checked UserId: createContext checks it instead
    createCheckedContext({ userId: 'alice' });
    // A look-alike is refused where a UserId is made, so it never reaches createCheckedContext.
    for (const lookAlike of ['alice ', 'jose\u0301', '../bob', 'al\u200bice']) {
      expect(() => parseUserId(lookAlike)).toThrow(InvalidArgumentsError);
      expect(() => createContext({ userId: lookAlike })).toThrow(InvalidArgumentsError);
    }
  });

  it('still checks the rest: thread id, task id and allow-list', () => {
    const userId = parseUserId('alice');
    expect(() => createCheckedContext({ userId, threadId: ' ' })).toThrow(/thread id/);
    expect(() => createCheckedContext({ userId, taskId: '' })).toThrow(/task id/);
    expect(() =>
      createCheckedContext({ userId, allowServers: Array.from({ length: 501 }, String) }),
    ).toThrow(/allowServers/);
    const ctx = createCheckedContext({ userId, allowServers: ['a', 'a', 'b'] });
    expect(ctx.allowServers).toEqual(['a', 'b']);
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
