import type { Clock, Logger } from '@mcp-agent/core';
import type { Registry } from '@mcp-agent/registry';
import type { Agent } from '../agent.js';

/** How long finished tasks are kept. */
export interface TaskRetention {
  /** Finished tasks are deleted this long after they finished; default 7 days. */
  readonly maxAgeMs?: number;
  /** Finished tasks kept per user; the oldest go first; default 1,000. */
  readonly maxPerUser?: number;
}

/** Options of {@link DurableTasks}. */
export interface DurableTasksOptions {
  /** Runs each task; its running-task cap still applies in this process. */
  readonly agent: Agent;
  /** Whose database stores the tasks, their events, results and leases. */
  readonly registry: Registry;
  /** Receives lease, sweep and shutdown logs; default silent. */
  readonly logger?: Logger;
  /** Time of leases, retention and polling; tests pass a manual clock. Default the system's. */
  readonly clock?: Clock;
  /**
   * Tasks one user may run at once, counted in the database over every process on it; default
   * the agent's `maxRunningTasksPerUser`.
   */
  readonly maxRunningPerUser?: number;
  /**
   * A task is its process's for this long after the last heartbeat; a process that dies leaves
   * its tasks to be failed, with the reason, within about 1.5 × this. Default 15 s.
   */
  readonly leaseMs?: number;
  /** How often the owner looks for cancel requests made in other processes; default 250 ms. */
  readonly cancelPollMs?: number;
  /** How often a follower in a process that does not run the task reads it; default 250 ms. */
  readonly followPollMs?: number;
  /** How long and how many finished tasks are kept; default 7 days, 1,000 per user. */
  readonly retention?: TaskRetention;
  /** Step events stored per task; past it they are counted, not stored. Default 10,000. */
  readonly maxEventsPerTask?: number;
}
