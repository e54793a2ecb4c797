import type { AgentContext } from '@mcp-agent/core';
import { compareText } from '@mcp-agent/core';
import type { Executor } from '../database/executor.js';
import { timestamp } from '../database/timestamp.js';
import type { UserRepository } from './users.js';

/** Which servers are active in a conversation. A thread with none activated uses them all. */
export class ThreadRepository {
  constructor(
    private readonly db: Executor,
    private readonly users: UserRepository,
  ) {}

  /** Adds `serverIds` to the thread's active set. */
  async activate(ctx: AgentContext, threadId: string, serverIds: readonly string[]): Promise<void> {
    if (serverIds.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      await this.users.upsert(ctx, trx);
      const now = timestamp(ctx);
      await trx
        .insertInto('thread_activations')
        .values(
          [...new Set(serverIds)].map((serverId) => ({
            user_id: ctx.userId,
            thread_id: threadId,
            server_id: serverId,
            created_at: now,
          })),
        )
        .onConflict((oc) => oc.columns(['user_id', 'thread_id', 'server_id']).doNothing())
        .execute();
    });
  }

  /** Removes `serverIds` (or every activation) from the thread. */
  async deactivate(
    ctx: AgentContext,
    threadId: string,
    serverIds?: readonly string[],
  ): Promise<void> {
    let query = this.db
      .deleteFrom('thread_activations')
      .where('user_id', '=', ctx.userId)
      .where('thread_id', '=', threadId);
    if (serverIds !== undefined) {
      if (serverIds.length === 0) return;
      query = query.where('server_id', 'in', [...serverIds]);
    }
    await query.execute();
  }

  /** The server ids activated in the thread, sorted; empty when none are. */
  async list(ctx: AgentContext, threadId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('thread_activations')
      .select(['server_id'])
      .where('user_id', '=', ctx.userId)
      .where('thread_id', '=', threadId)
      .execute();
    return rows.map((row) => row.server_id).sort(compareText);
  }
}
