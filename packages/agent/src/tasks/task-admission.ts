import { ConfigError, type AgentContext, type UserId } from '@mcp-agent/core';
import type { NewTask, TaskRecord, TaskStore } from '@mcp-agent/registry';
import { runningTasksRefusal } from '../agent-limits.js';

// Set in AdmittedTask's static block: only this module mints an admitted task.
let mint: (userId: UserId, release: () => void) => AdmittedTask;

/**
 * A task that passed its user's running-task cap: what `Agent.runAdmitted` runs, once. Only
 * {@link TaskAdmission} makes one, so no caller runs a task that was not admitted.
 */
export class AdmittedTask {
  readonly #release: () => void;
  #used = false;

  static {
    mint = (userId, release) => new AdmittedTask(userId, release);
  }

  private constructor(
    /** The user, canonical: the tenant key the cap counted. */
    readonly userId: UserId,
    release: () => void,
  ) {
    this.#release = release;
  }

  /** Marks the task as started; a second start of one admission is a `ConfigError`. */
  take(): void {
    if (this.#used)
      throw new ConfigError('This admitted task was already run; admit a new one for each task.');
    this.#used = true;
  }

  /** Gives the slot back when the task ends; once, however often it is called. */
  release(): void {
    this.#release();
  }
}

/** A durable task admitted in the database: its stored row, and the admission that runs it. */
export interface StoredTaskAdmitted {
  /** The task's row, recorded as running and owned by this process. */
  readonly record: TaskRecord;
  /** What `Agent.runAdmitted` takes to run it, once. */
  readonly admitted: AdmittedTask;
}

/**
 * The one place a task is admitted under its user's running-task cap, by the canonical user id
 * (the tenant key; a look-alike such as `"alice "` never gets this far, so one user is one key). Each task is admitted once, where it
 * lives: a task run only in this process is counted here, in memory; a durable task is counted
 * in the database over every process (`TaskStore.admit`) and is not counted again here.
 */
export class TaskAdmission {
  readonly #counts = new Map<UserId, number>();

  constructor(
    /** Tasks one user may run at once in this process (the agent's `maxRunningTasksPerUser`). */
    readonly maxPerUser: number,
  ) {}

  /** Tasks `userId` runs in this process now (stored tasks are counted in the database). */
  count(userId: UserId): number {
    return this.#counts.get(userId) ?? 0;
  }

  /**
   * Admits one task of `userId` to run in this process (synchronously, so two callers never both
   * take the last slot), or throws `RateLimitedError` with `details.retryAfterMs`.
   */
  admit(userId: UserId): AdmittedTask {
    const running = this.count(userId);
    if (running >= this.maxPerUser) throw runningTasksRefusal(running, this.maxPerUser);
    this.#counts.set(userId, running + 1);
    let released = false;
    return mint(userId, () => {
      if (released) return;
      released = true;
      const left = this.count(userId) - 1;
      if (left > 0) this.#counts.set(userId, left);
      else this.#counts.delete(userId);
    });
  }

  /**
   * Admits and stores a durable task of the context's user (checked by `createContext`) under
   * `input.maxRunning`, counted in the database over every process; throws `RateLimitedError`
   * past it. The task's row says it runs, so its slot frees when its end is written, not on
   * `release`.
   */
  async admitStored(
    tasks: Pick<TaskStore, 'admit'>,
    ctx: AgentContext,
    input: NewTask,
  ): Promise<StoredTaskAdmitted> {
    const admission = await tasks.admit(ctx, input);
    if (!admission.admitted) throw runningTasksRefusal(admission.running, input.maxRunning);
    return { record: admission.record, admitted: mint(ctx.userId, () => undefined) };
  }
}
