import type { AgentContext, MCPTaskResult } from '@mcp-agent/core';
import type { Executor } from '../database/executor.js';
import { TaskLeases, type LostTask } from './task-leases.js';
import {
  TaskRepository,
  type NewTask,
  type StoredTaskEvent,
  type StoredAdmission,
  type TaskRecord,
} from './task-repository.js';

/**
 * Durable tasks as their callers use them: a tenant's tasks (admitted under the running-task
 * cap, their events, their ends, cancel requests) and a process's work over every tenant
 * (renewing its leases, failing lost tasks, pruning finished ones, the operator's views). One
 * facade over the task rows and their leases, so no caller holds either repository.
 */
export class TaskStore {
  readonly #tasks: TaskRepository;
  readonly #leases: TaskLeases;

  constructor(db: Executor) {
    this.#tasks = new TaskRepository(db);
    this.#leases = new TaskLeases(db);
  }

  /**
   * Admits and records a running task of the context's user, unless the user already runs
   * `maxRunning` tasks with a live lease (counted over every process on the database); see
   * `StoredAdmission`.
   */
  admit(ctx: AgentContext, input: NewTask): Promise<StoredAdmission> {
    return this.#tasks.create(ctx, input);
  }

  /** The task, or `undefined` when the tenant has none by that id. */
  get(ctx: AgentContext, id: string): Promise<TaskRecord | undefined> {
    return this.#tasks.get(ctx, id);
  }

  /** The tenant's tasks, newest first (see `TaskRepository.list`). */
  list(
    ctx: AgentContext,
    options: { limit?: number; before?: string } = {},
  ): Promise<TaskRecord[]> {
    return this.#tasks.list(ctx, options);
  }

  /** The task's events after `after` (a seq; -1 for all), in order, at most `limit`. */
  events(
    ctx: AgentContext,
    id: string,
    options: { after?: number; limit?: number } = {},
  ): Promise<StoredTaskEvent[]> {
    return this.#tasks.events(ctx, id, options);
  }

  /** Stores events the owner numbered, in one go (see `TaskRepository.appendEvents`). */
  appendEvents(ctx: AgentContext, id: string, events: readonly StoredTaskEvent[]): Promise<void> {
    return this.#tasks.appendEvents(ctx, id, events);
  }

  /**
   * Records how the task ended, if it still runs under `owner`; whether this call finished it
   * (a task already failed as lost is left as it is).
   */
  finish(
    ctx: AgentContext,
    id: string,
    owner: string,
    result: MCPTaskResult,
    eventsDropped = 0,
  ): Promise<boolean> {
    return this.#tasks.finish(ctx, id, owner, result, eventsDropped);
  }

  /** Asks the task's owner, wherever it runs, to cancel it; the task as it is now. */
  requestCancel(ctx: AgentContext, id: string): Promise<TaskRecord | undefined> {
    return this.#tasks.requestCancel(ctx, id);
  }

  /** Extends every running task of `owner` to `now + leaseMs`; returns how many. */
  renewLeases(owner: string, leaseMs: number, now: number): Promise<number> {
    return this.#leases.renew(owner, leaseMs, now);
  }

  /** The ids of `owner`'s running tasks that another request asked to cancel. */
  cancelRequests(owner: string): Promise<string[]> {
    return this.#leases.cancelRequests(owner);
  }

  /**
   * Fails every running task whose lease ended before `now`, saying why, each once however
   * many processes sweep; the tasks failed by this call.
   */
  failLost(now: number): Promise<LostTask[]> {
    return this.#leases.expire(now);
  }

  /** Deletes the tasks that finished before `before` (with their events); how many. */
  pruneFinished(before: number): Promise<number> {
    return this.#leases.prune(before);
  }

  /** For the operator's views only: the newest tasks of every tenant, at most `limit`. */
  recentForOperator(limit: number): Promise<TaskRecord[]> {
    return this.#leases.recent(limit);
  }

  /** For the operator's views only: one task by id, whichever tenant owns it. */
  findForOperator(id: string): Promise<TaskRecord | undefined> {
    return this.#leases.find(id);
  }

  /** Tasks running now over every process on the database, for the operator's figures. */
  runningCount(): Promise<number> {
    return this.#leases.running();
  }
}
