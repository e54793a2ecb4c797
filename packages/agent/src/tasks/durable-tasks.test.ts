import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createContext,
  InvalidArgumentsError,
  NotReadyError,
  RateLimitedError,
} from '@mcp-agent/core';
import { Dispatcher } from '@mcp-agent/actions';
import { Knowledge } from '@mcp-agent/knowledge';
import { ConnectionPool, type Registry } from '@mcp-agent/registry';
import { testDialects, type SharedDatabase } from '@mcp-agent/registry/testing';
import { Agent } from '../agent.js';
import type { ModelClient, ModelRequest, ModelResponse } from '../model/model-client.js';
import { mockText, mockToolUse } from '../testing/index.js';
import { DurableTasks, type TaskStreamItem } from './durable-tasks.js';

/** A model whose every answer waits for `release()` (or the request's abort). */
class GatedModel implements ModelClient {
  readonly specificationVersion = 'v1' as const;
  readonly modelId = 'gated';
  readonly requests: ModelRequest[] = [];
  #open: (() => void)[] = [];

  async generate(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    await new Promise<void>((resolve, reject) => {
      this.#open.push(resolve);
      request.signal?.addEventListener('abort', () => reject(request.signal?.reason), {
        once: true,
      });
    });
    // A search first, then the answer.
    return request.messages.length > 1
      ? mockText('Done.')
      : mockToolUse([['search_tools', { query: 'anything' }]]);
  }

  /** Lets every waiting request answer. */
  release(): void {
    for (const open of this.#open.splice(0)) open();
  }
}

interface Process {
  readonly registry: Registry;
  readonly pool: ConnectionPool;
  readonly model: GatedModel;
  readonly tasks: DurableTasks;
  readonly agent: Agent;
}

const sqlite = testDialects().dialects[0];
let shared: SharedDatabase;
let x: Process;
let y: Process;

function processOn(registry: Registry, options: { maxEvents?: number } = {}): Process {
  const pool = new ConnectionPool(registry);
  const model = new GatedModel();
  const agent = new Agent({
    registry,
    pool,
    knowledge: new Knowledge({ registry }),
    dispatcher: new Dispatcher({ registry, pool }),
    model,
    limits: { maxRunningTasksPerUser: 2 },
  });
  const tasks = new DurableTasks({
    agent,
    registry,
    leaseMs: 1_000,
    cancelPollMs: 50,
    followPollMs: 20,
    ...(options.maxEvents === undefined ? {} : { maxEventsPerTask: options.maxEvents }),
  });
  return { registry, pool, model, tasks, agent };
}

async function collect(stream: AsyncGenerator<TaskStreamItem>): Promise<TaskStreamItem[]> {
  const items: TaskStreamItem[] = [];
  for await (const item of stream) items.push(item);
  return items;
}

async function until(check: () => boolean): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!check()) {
    if (performance.now() > deadline) throw new Error('condition not met within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

beforeAll(async () => {
  shared = await (sqlite as NonNullable<typeof sqlite>).openMany(2);
  const [first, second] = shared.registries as [Registry, Registry];
  x = processOn(first);
  y = processOn(second);
});
afterAll(async () => {
  for (const process of [x, y]) {
    process?.model.release();
    await process?.tasks.close();
    await process?.pool.close();
  }
  await shared?.close();
});

describe('DurableTasks: two processes on one database', () => {
  it('a task started in one process is followed from the other, event by event, to its end', async () => {
    const record = await x.tasks.start('alice', 'Find something.');
    expect(record.status).toBe('running');
    const following = collect(y.tasks.follow('alice', record.id));
    const here = collect(x.tasks.follow('alice', record.id));
    await until(() => x.model.requests.length === 1);
    x.model.release();
    await until(() => x.model.requests.length === 2);
    x.model.release();
    const [remote, local] = await Promise.all([following, here]);
    const types = (items: TaskStreamItem[]) =>
      items.map((item) => ('done' in item ? `done:${item.done.status}` : item.event.type));
    expect(types(remote)).toEqual(types(local));
    expect(types(remote)).toEqual([
      'step-start',
      'tool-call',
      'observation',
      'step-start',
      'answer',
      'done:completed',
    ]);
    expect(
      remote.filter((item) => 'seq' in item).map((item) => (item as { seq: number }).seq),
    ).toEqual([0, 1, 2, 3, 4]);
    expect(await y.tasks.get('alice', record.id)).toMatchObject({
      status: 'completed',
      result: { answer: 'Done.' },
      eventCount: 5,
    });
    // Another user reads nothing, from either process.
    expect(await y.tasks.get('bob', record.id)).toBeUndefined();
    expect(await collect(y.tasks.follow('bob', record.id))).toEqual([]);
    expect(await x.tasks.cancel('bob', record.id)).toBeUndefined();
  });

  it('API-02 a cancel made in the other process reaches the owner at its next poll', async () => {
    const record = await x.tasks.start('alice', 'Wait.');
    await until(() => x.model.requests.length === 3);
    expect(x.tasks.running).toBe(1);
    const started = performance.now();
    const cancelled = await y.tasks.cancel('alice', record.id);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      result: { status: 'cancelled', error: { code: 'CANCELLED' } },
      cancelRequested: false,
    });
    expect(x.tasks.running).toBe(0);
  });

  it('the running-task cap counts the tasks of every process', async () => {
    const first = await x.tasks.start('carol', 'One.');
    const second = await y.tasks.start('carol', 'Two.');
    for (const process of [x, y]) {
      const refused = await process.tasks.start('carol', 'Three.').catch((error: unknown) => error);
      expect(RateLimitedError.isInstance(refused)).toBe(true);
      expect((refused as RateLimitedError).details).toMatchObject({ running: 2, limit: 2 });
    }
    await x.tasks.cancel('carol', first.id);
    await y.tasks.cancel('carol', second.id);
  });

  it('a task whose owner died is failed with the reason by another process, and its followers see that end', async () => {
    const ctx = createContext({ userId: 'dave' });
    const admission = await y.registry.tasks.admit(ctx, {
      task: 'Orphaned.',
      owner: 'proc_gone',
      leaseMs: 1,
      maxRunning: 5,
      keepFinished: 10,
    });
    if (!admission.admitted) throw new Error('not admitted');
    const following = collect(x.tasks.follow('dave', admission.record.id));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await y.tasks.sweep()).toBeGreaterThanOrEqual(1);
    const items = await following;
    expect(items.at(-1)).toMatchObject({
      done: {
        status: 'failed',
        error: { details: { reason: 'process_lost', owner: 'proc_gone' } },
      },
    });
  });

  it('run() returns the result like executeTask, and a refusal is a failed result, not a throw', async () => {
    const before = x.model.requests.length;
    const running = x.tasks.run('erin', 'Quick.');
    await until(() => x.model.requests.length === before + 1);
    x.model.release();
    await until(() => x.model.requests.length === before + 2);
    x.model.release();
    expect(await running).toMatchObject({ status: 'completed', answer: 'Done.' });
    const one = await y.tasks.start('frank', 'One.');
    const two = await y.tasks.start('frank', 'Two.');
    expect(await x.tasks.run('frank', 'Three.')).toMatchObject({
      status: 'failed',
      error: { code: 'RATE_LIMITED' },
    });
    await y.tasks.cancel('frank', one.id);
    await y.tasks.cancel('frank', two.id);
  });

  it('AUTH-21 AUTH-22 one id per user for the running-task cap of the agent and of the stored tasks: a look-alike ("ivy ") is refused before it is counted, never counted as ivy', async () => {
    const before = x.model.requests.length;
    // The library's entry: a look-alike is refused, not admitted as ivy nor as a tenant of its own.
    for (const lookAlike of ['ivy ', ' ivy', 'ivy\u00a0'])
      expect(await x.agent.executeTask('Nothing.', lookAlike)).toMatchObject({
        status: 'failed',
        error: {
          code: 'INVALID_ARGUMENTS',
          details: { reason: expect.stringMatching(/whitespace/) },
        },
      });
    const first = x.agent.executeTask('One.', 'ivy');
    const second = x.agent.executeTask('Two.', 'ivy');
    expect(await x.agent.executeTask('Three.', 'ivy')).toMatchObject({
      status: 'failed',
      error: { code: 'RATE_LIMITED', details: { running: 2, limit: 2 } },
    });
    await until(() => x.model.requests.length === before + 2);
    x.model.release();
    await until(() => x.model.requests.length === before + 4);
    x.model.release();
    expect(await first).toMatchObject({ status: 'completed' });
    expect(await second).toMatchObject({ status: 'completed' });
    // The stored tasks: a look-alike is refused; the tenant's own are admitted and counted once.
    const [xBefore, yBefore] = [x.model.requests.length, y.model.requests.length];
    await expect(y.tasks.start('jay ', 'Nothing.')).rejects.toThrow(InvalidArgumentsError);
    const one = await y.tasks.start('jay', 'One.');
    const two = await x.tasks.start('jay', 'Two.');
    await until(
      () => x.model.requests.length === xBefore + 1 && y.model.requests.length === yBefore + 1,
    );
    await expect(y.tasks.start('jay', 'Three.')).rejects.toThrow(RateLimitedError);
    expect(
      (await y.registry.tasks.list(createContext({ userId: 'jay' }), {})).map((t) => t.id).sort(),
    ).toEqual([one.id, two.id].sort());
    await y.tasks.cancel('jay', one.id);
    await x.tasks.cancel('jay', two.id);
  });

  it("AUTH-21 a stored task is admitted once, in the database: its cap is the stored tasks' own, not also the agent's in-process one", async () => {
    // The agent admits 2 at once in memory; these stored tasks allow 3, counted in the database.
    const wide = new DurableTasks({
      agent: x.agent,
      registry: x.registry,
      maxRunningPerUser: 3,
      leaseMs: 1_000,
      cancelPollMs: 50,
      followPollMs: 20,
    });
    try {
      const before = x.model.requests.length;
      const started = [
        await wide.start('kim', 'One.'),
        await wide.start('kim', 'Two.'),
        await wide.start('kim', 'Three.'),
      ];
      await until(() => x.model.requests.length === before + 3);
      expect(wide.running).toBe(3);
      const refused = await wide.start('kim', 'Four.').catch((error: unknown) => error);
      expect(RateLimitedError.isInstance(refused)).toBe(true);
      expect((refused as RateLimitedError).details).toMatchObject({ running: 3, limit: 3 });
      for (const record of started) await wide.cancel('kim', record.id);
      expect(wide.running).toBe(0);
    } finally {
      await wide.close();
    }
  });

  it('events past the bound are counted, not stored, and the end says how many', async () => {
    const small = processOn(await shared.another(), { maxEvents: 2 });
    try {
      const record = await small.tasks.start('grace', 'Bounded.');
      const following = collect(y.tasks.follow('grace', record.id));
      await until(() => small.model.requests.length === 1);
      small.model.release();
      await until(() => small.model.requests.length === 2);
      small.model.release();
      const items = await following;
      expect(items.filter((item) => 'seq' in item)).toHaveLength(2);
      expect(items.at(-1)).toMatchObject({ done: { status: 'completed' }, eventsDropped: 3 });
    } finally {
      await small.tasks.close();
      await small.pool.close();
    }
  });

  it('drain takes no new task, lets running ones finish within the time, then cancels the rest saying why', async () => {
    const draining = processOn(await shared.another());
    try {
      const record = await draining.tasks.start('heidi', 'Long.');
      await until(() => draining.model.requests.length === 1);
      const outcome = await draining.tasks.drain(100);
      expect(outcome).toEqual({ finished: 0, cancelled: 1 });
      expect(await y.tasks.get('heidi', record.id)).toMatchObject({
        status: 'cancelled',
        result: { error: { message: expect.stringMatching(/server shut down/) } },
      });
      const refused = await draining.tasks.start('heidi', 'More.').catch((error: unknown) => error);
      expect(NotReadyError.isInstance(refused)).toBe(true);
    } finally {
      await draining.tasks.close();
      await draining.pool.close();
    }
  });
});
