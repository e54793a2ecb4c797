import { sql } from 'kysely';
import type { AgentContext } from '@mcp-agent/core';
import type { Executor } from '../database/executor.js';
import { timestamp } from '../database/timestamp.js';
import {
  sessionKey,
  type GatewaySessionAdmission,
  type GatewaySessionClient,
  type GatewaySessionLimits,
  type GatewaySessionRecord,
  type GatewaySessionStore,
} from './gateway-session-store.js';

// Ids per statement in the housekeeping queries: well within both dialects' parameter limits.
const CHUNK = 500;

const iso = (ms: number) => new Date(ms).toISOString();

/** {@link GatewaySessionStore} over the registry's database (SQLite or PostgreSQL). */
export class GatewaySessionRepository implements GatewaySessionStore {
  constructor(private readonly db: Executor) {}

  async admit(
    ctx: AgentContext,
    sessionId: string,
    limits: GatewaySessionLimits,
  ): Promise<GatewaySessionAdmission> {
    const now = timestamp(ctx);
    return this.db.transaction().execute(async (trx) => {
      // The user's admission row, locked by the upsert until the end of the transaction: two
      // processes admitting the same user's sessions take turns, so the count below holds.
      await trx
        .insertInto('gateway_session_admissions')
        .values({ user_id: ctx.userId, admitted: 1, updated_at: now })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({
            admitted: sql`gateway_session_admissions.admitted + 1`,
            updated_at: now,
          }),
        )
        .execute();
      const { open } = await trx
        .selectFrom('gateway_sessions')
        .select((eb) => eb.fn.countAll<number | string>().as('open'))
        .where('user_id', '=', ctx.userId)
        .where('last_used_at', '>', iso(ctx.clock.now() - limits.idleMs))
        .executeTakeFirstOrThrow();
      if (Number(open) >= limits.maxPerUser) return { admitted: false, open: Number(open) };
      await trx
        .insertInto('gateway_sessions')
        .values({
          id: sessionKey(sessionId),
          user_id: ctx.userId,
          protocol_version: '',
          client: '{}',
          search_scope: '',
          created_at: now,
          last_used_at: now,
        })
        .execute();
      return { admitted: true };
    });
  }

  async initialized(
    ctx: AgentContext,
    sessionId: string,
    init: { readonly protocolVersion: string; readonly client: GatewaySessionClient },
  ): Promise<void> {
    await this.db
      .updateTable('gateway_sessions')
      .set({
        protocol_version: init.protocolVersion,
        client: JSON.stringify({
          capabilities: init.client.capabilities,
          clientInfo: init.client.clientInfo,
        }),
      })
      .where('user_id', '=', ctx.userId)
      .where('id', '=', sessionKey(sessionId))
      .execute();
  }

  async find(
    ctx: AgentContext,
    sessionId: string,
    idleMs: number,
  ): Promise<GatewaySessionRecord | undefined> {
    const row = await this.db
      .selectFrom('gateway_sessions')
      .selectAll()
      .where('user_id', '=', ctx.userId)
      .where('id', '=', sessionKey(sessionId))
      .where('protocol_version', '<>', '')
      .where('last_used_at', '>', iso(ctx.clock.now() - idleMs))
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const client = JSON.parse(row.client) as GatewaySessionClient;
    return {
      userId: row.user_id,
      protocolVersion: row.protocol_version,
      client: { capabilities: client.capabilities ?? {}, clientInfo: client.clientInfo ?? {} },
      searchScope: row.search_scope,
      described: await this.described(ctx, sessionId),
      createdAt: Date.parse(row.created_at),
      lastUsedAt: Date.parse(row.last_used_at),
    };
  }

  async heldByAnother(ctx: AgentContext, sessionId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('gateway_sessions')
      .select(['id'])
      .where('user_id', '<>', ctx.userId)
      .where('id', '=', sessionKey(sessionId))
      .executeTakeFirst();
    return row !== undefined;
  }

  async described(ctx: AgentContext, sessionId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('gateway_session_tools')
      .select(['tool_id'])
      .where('user_id', '=', ctx.userId)
      .where('session_id', '=', sessionKey(sessionId))
      .execute();
    return rows.map((row) => row.tool_id);
  }

  async addDescribed(
    ctx: AgentContext,
    sessionId: string,
    toolIds: readonly string[],
  ): Promise<void> {
    if (toolIds.length === 0) return;
    const key = sessionKey(sessionId);
    await this.db
      .insertInto('gateway_session_tools')
      .values(
        [...new Set(toolIds)].map((toolId) => ({
          user_id: ctx.userId,
          session_id: key,
          tool_id: toolId,
        })),
      )
      .onConflict((oc) => oc.columns(['user_id', 'session_id', 'tool_id']).doNothing())
      .execute();
  }

  async setSearchScope(ctx: AgentContext, sessionId: string, scope: string): Promise<void> {
    await this.db
      .updateTable('gateway_sessions')
      .set({ search_scope: scope })
      .where('user_id', '=', ctx.userId)
      .where('id', '=', sessionKey(sessionId))
      .execute();
  }

  async touch(ctx: AgentContext, sessionId: string, at: number): Promise<void> {
    const when = iso(at);
    await this.db
      .updateTable('gateway_sessions')
      .set({ last_used_at: when })
      .where('user_id', '=', ctx.userId)
      .where('id', '=', sessionKey(sessionId))
      .where('last_used_at', '<', when)
      .execute();
  }

  async remove(ctx: AgentContext, sessionId: string): Promise<boolean> {
    const key = sessionKey(sessionId);
    return this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('gateway_session_tools')
        .where('user_id', '=', ctx.userId)
        .where('session_id', '=', key)
        .execute();
      const deleted = await trx
        .deleteFrom('gateway_sessions')
        .where('user_id', '=', ctx.userId)
        .where('id', '=', key)
        .executeTakeFirst();
      return Number(deleted.numDeletedRows) > 0;
    });
  }

  async existing(sessionIds: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < sessionIds.length; i += CHUNK) {
      const byKey = new Map(sessionIds.slice(i, i + CHUNK).map((id) => [sessionKey(id), id]));
      const rows = await this.db
        .selectFrom('gateway_sessions')
        .select(['id'])
        .where('id', 'in', [...byKey.keys()])
        .execute();
      for (const row of rows) found.add(byKey.get(row.id) as string);
    }
    return found;
  }

  async sweep(before: number, limit = 1_000): Promise<number> {
    const rows = await this.db
      .selectFrom('gateway_sessions')
      .select(['id'])
      .where('last_used_at', '<', iso(before))
      .limit(limit)
      .execute();
    if (rows.length === 0) return 0;
    const keys = rows.map((row) => row.id);
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('gateway_session_tools').where('session_id', 'in', keys).execute();
      await trx.deleteFrom('gateway_sessions').where('id', 'in', keys).execute();
    });
    return keys.length;
  }
}
