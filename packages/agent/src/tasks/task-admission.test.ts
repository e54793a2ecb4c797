import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConfigError,
  createContext,
  InvalidArgumentsError,
  parseUserId,
  RateLimitedError,
} from '@mcp-agent/core';
import type { NewTask, Registry } from '@mcp-agent/registry';
import { createTestRegistry } from '@mcp-agent/registry/testing';
import { TaskAdmission } from './task-admission.js';

function refusal(admit: () => unknown): RateLimitedError {
  let refused: unknown;
  try {
    admit();
  } catch (error) {
    refused = error;
  }
  expect(RateLimitedError.isInstance(refused)).toBe(true);
  return refused as RateLimitedError;
}

const stored = (task: string, maxRunning: number): NewTask => ({
  task,
  owner: 'proc_here',
  leaseMs: 60_000,
  maxRunning,
  keepFinished: 10,
});

let registry: Registry;
beforeAll(async () => {
  registry = await createTestRegistry();
});
afterAll(async () => {
  await registry?.close();
});

const alice = parseUserId('alice');
const bob = parseUserId('bob');

describe('TaskAdmission: a task admitted once, by the canonical user id', () => {
  it('counts running tasks per user in memory, refuses one past the cap, and frees a slot once', () => {
    const admission = new TaskAdmission(2);
    const first = admission.admit(alice);
    admission.admit(alice);
    admission.admit(bob);
    expect(refusal(() => admission.admit(alice)).details).toMatchObject({
      running: 2,
      limit: 2,
    });
    first.release();
    first.release();
    expect(admission.count(alice)).toBe(1);
    expect(admission.count(bob)).toBe(1);
    admission.admit(alice);
    expect(admission.count(alice)).toBe(2);
  });

  it('AUTH-21 AUTH-22 one id per user: a look-alike of "alice" never reaches the cap, as a key of its own or as hers', () => {
    const admission = new TaskAdmission(1);
    const first = admission.admit(alice);
    expect(first.userId).toBe('alice');
    for (const lookAlike of ['alice ', ' alice', 'alice\u00a0', 'alice\ufeff'])
      expect(() => parseUserId(lookAlike)).toThrow(InvalidArgumentsError);
    expect(refusal(() => admission.admit(alice)).details).toMatchObject({
      running: 1,
      limit: 1,
    });
    first.release();
    expect(admission.admit(alice).userId).toBe('alice');
  });

  it('AUTH-21 AUTH-22 the stored cap counts the canonical id, a look-alike has no context to be counted under, and a stored task is not counted again in memory', async () => {
    const admission = new TaskAdmission(1);
    const { record, admitted } = await admission.admitStored(
      registry.tasks,
      createContext({ userId: 'alice' }),
      stored('One.', 1),
    );
    expect([record.userId, admitted.userId]).toEqual(['alice', 'alice']);
    expect(() => createContext({ userId: 'alice ' })).toThrow(/whitespace/);
    const refused = await admission
      .admitStored(registry.tasks, createContext({ userId: 'alice' }), stored('Two.', 1))
      .catch((error: unknown) => error);
    expect(RateLimitedError.isInstance(refused)).toBe(true);
    expect((refused as RateLimitedError).details).toMatchObject({ running: 1, limit: 1 });
    // Counted once, in the database: the in-process count never saw it.
    expect(admission.count(alice)).toBe(0);
    const tasks = await registry.tasks.list(createContext({ userId: 'alice' }));
    expect(tasks.map((task) => task.id)).toEqual([record.id]);
  });

  it('an admission runs one task: taking it twice is refused', () => {
    const admitted = new TaskAdmission(1).admit(parseUserId('carol'));
    admitted.take();
    expect(() => admitted.take()).toThrow(ConfigError);
  });
});
