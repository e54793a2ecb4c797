import { randomUUID } from 'node:crypto';
import type { MCPTaskResult, StepEvent } from '@mcp-agent/core';

/** A task started through the API. */
export interface TaskRecord {
  readonly id: string;
  readonly userId: string;
  readonly task: string;
  /** When it was started (epoch milliseconds). */
  readonly createdAt: number;
  status: 'running' | MCPTaskResult['status'];
  result: MCPTaskResult | undefined;
  readonly events: StepEvent[];
  readonly listeners: Set<(event: StepEvent | 'done') => void>;
  readonly controller: AbortController;
  /** Settles when the task has finished, whatever its status. */
  readonly finished: Promise<void>;
}

/**
 * Tasks in memory, per user: a task of another user is the same "not found" as a missing one.
 * Bounded: finished tasks beyond the newest 1,000 are forgotten.
 */
export class TaskStore {
  readonly #tasks = new Map<string, TaskRecord>();
  readonly #settle = new WeakMap<TaskRecord, () => void>();

  create(userId: string, task: string): TaskRecord {
    let settle = () => {};
    const finished = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const record: TaskRecord = {
      id: `task_${randomUUID()}`,
      userId,
      task,
      createdAt: Date.now(),
      status: 'running',
      result: undefined,
      events: [],
      listeners: new Set(),
      controller: new AbortController(),
      finished,
    };
    this.#settle.set(record, settle);
    this.#tasks.set(record.id, record);
    for (const [id, old] of this.#tasks) {
      if (this.#tasks.size <= 1_000) break;
      if (old.status !== 'running') this.#tasks.delete(id);
    }
    return record;
  }

  /** Forgets a task that never started (its start was refused). */
  remove(record: TaskRecord): void {
    this.#tasks.delete(record.id);
  }

  /** The user's tasks (every user's, for the operator: `undefined`), newest first, at most `limit`. */
  list(userId: string | undefined, limit: number): TaskRecord[] {
    const found: TaskRecord[] = [];
    for (const record of this.#tasks.values())
      if (userId === undefined || record.userId === userId) found.push(record);
    return found.reverse().slice(0, limit);
  }

  get(userId: string, id: string): TaskRecord | undefined {
    const record = this.#tasks.get(id);
    return record?.userId === userId ? record : undefined;
  }

  emit(record: TaskRecord, event: StepEvent): void {
    record.events.push(event);
    for (const listener of record.listeners) listener(event);
  }

  finish(record: TaskRecord, result: MCPTaskResult): void {
    record.result = result;
    record.status = result.status;
    for (const listener of record.listeners) listener('done');
    record.listeners.clear();
    this.#settle.get(record)?.();
  }
}
