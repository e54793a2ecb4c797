import { CancelledError, toMcpAgentError, type Clock, type Logger } from '@mcp-agent/core';
import type { Registry } from '@mcp-agent/registry';
import type { RunningTask } from './running-task.js';

/** The timings of {@link TaskLeasesKeeper}, every one in milliseconds. */
export interface LeaseTimings {
  /** A task is its owner's this long after the last heartbeat. */
  readonly leaseMs: number;
  /** Heartbeats, while this process runs tasks. */
  readonly renewMs: number;
  /** Looks for cancel requests made in other processes, while this process runs tasks. */
  readonly cancelPollMs: number;
  /** Fails tasks whose owner stopped renewing, and prunes old tasks, in any process. */
  readonly sweepMs: number;
  /** Finished tasks are deleted this long after they finished. */
  readonly maxAgeMs: number;
}

/**
 * The timers of durable tasks in one process: while it runs tasks, it renews their leases and
 * picks up cancel requests made elsewhere; always, it sweeps tasks of processes that died
 * (failed with the reason) and prunes finished tasks past the retention.
 */
export class TaskLeasesKeeper {
  readonly #sweep: NodeJS.Timeout;
  #poll: NodeJS.Timeout | undefined;
  #polling = false;
  #lastRenew = 0;
  #lastPrune = 0;

  constructor(
    private readonly owner: string,
    private readonly registry: Registry,
    private readonly local: ReadonlyMap<string, RunningTask>,
    private readonly timings: LeaseTimings,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.#sweep = setInterval(() => void this.sweep(), timings.sweepMs);
    this.#sweep.unref();
  }

  /** Starts the heartbeat and cancel poll if they are not running (a task just started here). */
  wake(): void {
    if (this.#poll !== undefined) return;
    this.#lastRenew = this.clock.now();
    this.#poll = setInterval(() => void this.#tick(), this.timings.cancelPollMs);
    this.#poll.unref();
  }

  /** Fails the tasks of dead owners and prunes old ones; returns how many were failed. */
  async sweep(): Promise<number> {
    try {
      const now = this.clock.now();
      const lost = await this.registry.tasks.failLost(now);
      for (const task of lost)
        this.logger.warn(
          { taskId: task.id, owner: task.owner },
          'task failed: the process running it stopped renewing its lease',
        );
      if (now - this.#lastPrune >= Math.min(60_000, this.timings.maxAgeMs)) {
        this.#lastPrune = now;
        await this.registry.tasks.pruneFinished(now - this.timings.maxAgeMs);
        // The audit log's age bound, for tenants who no longer write (each write keeps its own).
        await this.registry.pruneAudit(now);
      }
      return lost.length;
    } catch (error) {
      this.logger.warn({ error: toMcpAgentError(error).message }, 'task sweep failed');
      return 0;
    }
  }

  /** Stops every timer. */
  stop(): void {
    clearInterval(this.#sweep);
    clearInterval(this.#poll);
    this.#poll = undefined;
  }

  async #tick(): Promise<void> {
    if (this.#polling) return;
    if (this.local.size === 0) {
      clearInterval(this.#poll);
      this.#poll = undefined;
      return;
    }
    this.#polling = true;
    try {
      const now = this.clock.now();
      if (now - this.#lastRenew >= this.timings.renewMs) {
        this.#lastRenew = now;
        await this.registry.tasks.renewLeases(this.owner, this.timings.leaseMs, now);
      }
      for (const id of await this.registry.tasks.cancelRequests(this.owner))
        this.local
          .get(id)
          ?.controller.abort(new CancelledError('The task was cancelled through the API.'));
    } catch (error) {
      this.logger.warn({ error: toMcpAgentError(error).message }, 'task heartbeat failed');
    } finally {
      this.#polling = false;
    }
  }
}
