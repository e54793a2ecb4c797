import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { AgentContext, MCPTaskResult, StepEvent, TaskStatus } from '@mcp-agent/core';
import type { Executor } from '../database/executor.js';
import type { TasksTable } from '../database/schema.js';
import { timestamp } from '../database/timestamp.js';

/** A durable task as any process reads it. */
export interface TaskRecord {
  /** `task_` and a UUID: what the served surfaces hand out to read, follow or cancel it. */
  readonly id: string;
  /** The tenant that started it; no other tenant can read it. */
  readonly userId: string;
  /** The task as the user wrote it. */
  readonly task: string;
  /** `running` until it ends; then how it ended. */
  readonly status: 'running' | TaskStatus;
  /** The result once finished; `undefined` while running. */
  readonly result: MCPTaskResult | undefined;
  /** The process running it (its `TaskLeases.owner`). */
  readonly owner: string;
  /** Past this (ISO 8601 UTC) with no renewal the task is failed as lost by any process. */
  readonly leaseUntil: string;
  /** A cancel was asked for and the owner has not finished the task yet. */
  readonly cancelRequested: boolean;
  /** Events stored, and events that were not (past the per-task bound). */
  readonly eventCount: number;
  /** Events past the bound, counted but not stored: a reader knows what it did not see. */
  readonly eventsDropped: number;
  /** When it was admitted (ISO 8601 UTC). */
  readonly createdAt: string;
  /** When its row last changed (ISO 8601 UTC): an event, a cancel request, its end. */
  readonly updatedAt: string;
  /** When it ended (ISO 8601 UTC); `null` while running. */
  readonly finishedAt: string | null;
}

/** One stored step event: its place in the task's order (from 0), and the event. */
export interface StoredTaskEvent {
  /** Its place in the task's order, from 0: a reader resumes after the last one it saw. */
  readonly seq: number;
  /** The step event as the agent emitted it. */
  readonly event: StepEvent;
}

/** What {@link TaskStore.admit} needs. */
export interface NewTask {
  /** The task as the user wrote it. */
  readonly task: string;
  /** The process that will run it. */
  readonly owner: string;
  /** How long the task stays the owner's without a heartbeat. */
  readonly leaseMs: number;
  /** Tasks the user may run at once, counted over every process on the database. */
  readonly maxRunning: number;
  /** Finished tasks kept per user; older ones are deleted when a new one starts. */
  readonly keepFinished: number;
}

/** The answer of {@link TaskStore.admit}: the new task, or how many already run. */
export type StoredAdmission =
  | {
      /** The task was admitted and is recorded as running. */
      readonly admitted: true;
      /** The new task. */
      readonly record: TaskRecord;
    }
  | {
      /** Refused: the user already runs `maxRunning` tasks; nothing was written. */
      readonly admitted: false;
      /** Tasks of the user running with a live lease, for the refusal's message. */
      readonly running: number;
    };

/**
 * Durable tasks of one tenant: created under the user's running-task cap (counted in the
 * database, so it holds across processes), their step events in order, their results, and
 * cancel requests any process can make. Another tenant's task id is the same "not found" as a
 * missing one. Leases and sweeping, which cross tenants, are `TaskLeases`.
 */
export class TaskRepository {
  constructor(private readonly db: Executor) {}

  /**
   * Admits and records a running task of the context's user, unless the user already runs
   * `maxRunning` tasks with a live lease. The user's admission row is locked first (an upsert),
   * so two processes admitting at once are serialised and never both take the last slot.
   */
  async create(ctx: AgentContext, input: NewTask): Promise<StoredAdmission> {
    const now = timestamp(ctx);
    const admission = await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('task_admissions')
        .values({ user_id: ctx.userId, admitted: 1, updated_at: now })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({
            admitted: sql`task_admissions.admitted + 1`,
            updated_at: now,
          }),
        )
        .execute();
      const { running } = await trx
        .selectFrom('tasks')
        .select((eb) => eb.fn.countAll<number | string>().as('running'))
        .where('user_id', '=', ctx.userId)
        .where('status', '=', 'running')
        .where('lease_until', '>', now)
        .executeTakeFirstOrThrow();
      if (Number(running) >= input.maxRunning)
        return { admitted: false as const, running: Number(running) };
      const row: TasksTable = {
        id: `task_${randomUUID()}`,
        user_id: ctx.userId,
        task: input.task,
        status: 'running',
        result: null,
        owner: input.owner,
        lease_until: new Date(ctx.clock.now() + input.leaseMs).toISOString(),
        cancel_requested_at: null,
        event_count: 0,
        events_dropped: 0,
        created_at: now,
        updated_at: now,
        finished_at: null,
      };
      await trx.insertInto('tasks').values(row).execute();
      return { admitted: true as const, record: toRecord(row) };
    });
    if (admission.admitted) await this.#keepNewest(ctx, input.keepFinished);
    return admission;
  }

  /** The task, or `undefined` when the tenant has none by that id. */
  async get(ctx: AgentContext, id: string): Promise<TaskRecord | undefined> {
    const row = await this.db
      .selectFrom('tasks')
      .selectAll()
      .where('user_id', '=', ctx.userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /**
   * The tenant's tasks, newest first, at most `limit` (1-1,000; default 20); `before` (a task's
   * `createdAt`) pages on to older ones.
   */
  async list(
    ctx: AgentContext,
    options: { limit?: number; before?: string } = {},
  ): Promise<TaskRecord[]> {
    const limit = Math.min(Math.max(1, Math.floor(options.limit ?? 20)), 1_000);
    let query = this.db.selectFrom('tasks').selectAll().where('user_id', '=', ctx.userId);
    if (options.before !== undefined) query = query.where('created_at', '<', options.before);
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }

  /** The task's events after `after` (a seq; -1 for all), in order, at most `limit`. */
  async events(
    ctx: AgentContext,
    id: string,
    options: { after?: number; limit?: number } = {},
  ): Promise<StoredTaskEvent[]> {
    const rows = await this.db
      .selectFrom('task_events')
      .select(['seq', 'data'])
      .where('user_id', '=', ctx.userId)
      .where('task_id', '=', id)
      .where('seq', '>', options.after ?? -1)
      .orderBy('seq')
      .limit(Math.min(Math.max(1, options.limit ?? 500), 1_000))
      .execute();
    return rows.map((row) => ({ seq: row.seq, event: JSON.parse(row.data) as StepEvent }));
  }

  /**
   * Stores events the owner numbered (consecutive, from the task's `eventCount`), in one go;
   * nothing when the tenant has no task by that id.
   */
  async appendEvents(
    ctx: AgentContext,
    id: string,
    events: readonly StoredTaskEvent[],
  ): Promise<void> {
    const last = events.at(-1);
    if (last === undefined) return;
    const now = timestamp(ctx);
    await this.db.transaction().execute(async (trx) => {
      // The task must be the tenant's: nobody attaches events to another tenant's task.
      const owned = await trx
        .updateTable('tasks')
        .set({ event_count: last.seq + 1, updated_at: now })
        .where('user_id', '=', ctx.userId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(owned.numUpdatedRows) === 0) return;
      await trx
        .insertInto('task_events')
        .values(
          events.map(({ seq, event }) => ({
            user_id: ctx.userId,
            task_id: id,
            seq,
            type: event.type,
            data: JSON.stringify(event),
            created_at: now,
          })),
        )
        .execute();
    });
  }

  /**
   * Records how the task ended, if it still runs under `owner` (a task already failed as lost,
   * or finished elsewhere, is left as it is); returns whether this call finished it.
   */
  async finish(
    ctx: AgentContext,
    id: string,
    owner: string,
    result: MCPTaskResult,
    eventsDropped = 0,
  ): Promise<boolean> {
    const now = timestamp(ctx);
    const updated = await this.db
      .updateTable('tasks')
      .set({
        status: result.status,
        result: JSON.stringify(result),
        events_dropped: eventsDropped,
        cancel_requested_at: null,
        finished_at: now,
        updated_at: now,
      })
      .where('user_id', '=', ctx.userId)
      .where('id', '=', id)
      .where('owner', '=', owner)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  }

  /**
   * Asks the task's owner, wherever it runs, to cancel it (it sees the request at its next
   * poll); the task as it is now, or `undefined` when the tenant has none by that id.
   */
  async requestCancel(ctx: AgentContext, id: string): Promise<TaskRecord | undefined> {
    const now = timestamp(ctx);
    await this.db
      .updateTable('tasks')
      .set({ cancel_requested_at: now, updated_at: now })
      .where('user_id', '=', ctx.userId)
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('cancel_requested_at', 'is', null)
      .execute();
    return this.get(ctx, id);
  }

  // Past `keep` finished tasks, the user's oldest go (their events with them).
  async #keepNewest(ctx: AgentContext, keep: number): Promise<void> {
    const boundary = await this.db
      .selectFrom('tasks')
      .select(['finished_at', 'id'])
      .where('user_id', '=', ctx.userId)
      .where('status', '<>', 'running')
      .orderBy('finished_at', 'desc')
      .orderBy('id', 'desc')
      .offset(keep)
      .limit(1)
      .executeTakeFirst();
    if (boundary?.finished_at == null) return;
    const finishedAt = boundary.finished_at;
    await this.db
      .deleteFrom('tasks')
      .where('user_id', '=', ctx.userId)
      .where('status', '<>', 'running')
      .where((eb) =>
        eb.or([
          eb('finished_at', '<', finishedAt),
          eb.and([eb('finished_at', '=', finishedAt), eb('id', '<=', boundary.id)]),
        ]),
      )
      .execute();
  }
}

/** A `tasks` row as a {@link TaskRecord}. */
export function toRecord(row: TasksTable): TaskRecord {
  return {
    id: row.id,
    userId: row.user_id,
    task: row.task,
    status: row.status as TaskRecord['status'],
    result: row.result === null ? undefined : (JSON.parse(row.result) as MCPTaskResult),
    owner: row.owner,
    leaseUntil: row.lease_until,
    cancelRequested: row.cancel_requested_at !== null,
    eventCount: row.event_count,
    eventsDropped: row.events_dropped,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  };
}
