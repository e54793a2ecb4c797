import { ErrorCode, failedTaskResult, type MCPTaskResult } from '@mcp-agent/core';
import type { Executor } from '../database/executor.js';
import { toRecord, type TaskRecord } from './task-repository.js';

/** A task failed because the process running it stopped renewing its lease. */
export interface LostTask {
  /** The task's id. */
  readonly id: string;
  /** Its tenant. */
  readonly userId: string;
  /** The id of the process that ran it and stopped renewing it. */
  readonly owner: string;
}

// At most this many rows per sweep or prune statement, so one pass never holds locks for long.
const BATCH = 200;

/**
 * The process-level side of durable tasks, which crosses tenants the way key rotation does and
 * never returns one tenant's data to another: a process renews the leases of the tasks it runs
 * and collects cancel requests for them; any process fails the tasks whose owner stopped
 * renewing (it died, or lost the database), and deletes finished tasks past the retention.
 */
export class TaskLeases {
  constructor(private readonly db: Executor) {}

  /** Extends every running task of `owner` to `now + leaseMs`; returns how many. */
  async renew(owner: string, leaseMs: number, now: number): Promise<number> {
    const result = await this.db
      .updateTable('tasks')
      .set({ lease_until: new Date(now + leaseMs).toISOString() })
      .where('owner', '=', owner)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** The ids of `owner`'s running tasks that another request asked to cancel. */
  async cancelRequests(owner: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('tasks')
      .select('id')
      .where('owner', '=', owner)
      .where('status', '=', 'running')
      .where('cancel_requested_at', 'is not', null)
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * Fails every running task whose lease ended before `now`, with a result that says why; each
   * row is changed only if it is still running and expired, so sweepers in several processes
   * never write a task twice. Returns the tasks failed here.
   */
  async expire(now: number): Promise<LostTask[]> {
    const at = new Date(now).toISOString();
    const expired = await this.db
      .selectFrom('tasks')
      .select(['id', 'user_id', 'owner', 'lease_until', 'created_at'])
      .where('status', '=', 'running')
      .where('lease_until', '<', at)
      .limit(BATCH)
      .execute();
    const lost: LostTask[] = [];
    for (const row of expired) {
      const result = lostResult(row.owner, row.lease_until, Date.parse(row.created_at), now);
      const updated = await this.db
        .updateTable('tasks')
        .set({
          status: 'failed',
          result: JSON.stringify(result),
          cancel_requested_at: null,
          finished_at: at,
          updated_at: at,
        })
        .where('id', '=', row.id)
        .where('status', '=', 'running')
        .where('lease_until', '<', at)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) > 0)
        lost.push({ id: row.id, userId: row.user_id, owner: row.owner });
    }
    return lost;
  }

  /** Deletes finished tasks (and their events) that finished before `before`; returns how many. */
  async prune(before: number): Promise<number> {
    const at = new Date(before).toISOString();
    const old = await this.db
      .selectFrom('tasks')
      .select('id')
      .where('status', '<>', 'running')
      .where('finished_at', '<', at)
      .limit(BATCH)
      .execute();
    if (old.length === 0) return 0;
    const result = await this.db
      .deleteFrom('tasks')
      .where(
        'id',
        'in',
        old.map((row) => row.id),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * For the operator's views only: the newest tasks of every tenant, at most `limit` (1-1,000),
   * or one task by id whoever owns it. Never behind a tenant's request.
   */
  async recent(limit: number): Promise<TaskRecord[]> {
    const rows = await this.db
      .selectFrom('tasks')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(Math.min(Math.max(1, Math.floor(limit)), 1_000))
      .execute();
    return rows.map(toRecord);
  }

  /** See {@link recent}: one task of any tenant, for the operator. */
  async find(id: string): Promise<TaskRecord | undefined> {
    const row = await this.db
      .selectFrom('tasks')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? undefined : toRecord(row);
  }

  /** Tasks running now over every process on the database, for the operator's figures. */
  async running(): Promise<number> {
    const row = await this.db
      .selectFrom('tasks')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('status', '=', 'running')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }
}

/** The result a lost task ends with: failed, saying which process stopped and when. */
function lostResult(
  owner: string,
  leaseUntil: string,
  createdAt: number,
  now: number,
): MCPTaskResult {
  return failedTaskResult(
    {
      code: ErrorCode.Internal,
      message: `The server process running this task stopped before it finished (no heartbeat since its lease ended at ${leaseUntil}). Its steps so far are in its events; start the task again.`,
      details: { reason: 'process_lost', owner, leaseUntil },
    },
    Math.max(0, now - createdAt),
  );
}
