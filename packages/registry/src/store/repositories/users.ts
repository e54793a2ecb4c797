import type { AgentContext } from '@mcp-agent/core';
import type { Executor } from '../database/executor.js';
import { timestamp } from '../database/timestamp.js';

/** A tenant row. */
export interface UserRecord {
  /** The tenant's user id, as the context carries it. */
  readonly id: string;
  /** When the tenant first wrote anything (ISO 8601 UTC). */
  readonly createdAt: string;
  /** When it was last touched by a write (ISO 8601 UTC). */
  readonly updatedAt: string;
}

/** Users: the tenant rows every other table hangs off. */
export class UserRepository {
  constructor(private readonly db: Executor) {}

  /** Creates the context's user if missing, touches it otherwise; safe under concurrency. */
  async upsert(ctx: AgentContext, db: Executor = this.db): Promise<UserRecord> {
    const now = timestamp(ctx);
    const row = await db
      .insertInto('users')
      .values({ id: ctx.userId, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('id').doUpdateSet({ updated_at: now }))
      .returningAll()
      .executeTakeFirstOrThrow();
    return { id: row.id, createdAt: row.created_at, updatedAt: row.updated_at };
  }

  /** The context's user, or `undefined` when it never stored anything. */
  async get(ctx: AgentContext): Promise<UserRecord | undefined> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', ctx.userId)
      .executeTakeFirst();
    return row && { id: row.id, createdAt: row.created_at, updatedAt: row.updated_at };
  }
}
