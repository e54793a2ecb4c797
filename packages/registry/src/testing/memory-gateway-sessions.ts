import type { AgentContext } from '@mcp-agent/core';
import {
  sessionKey,
  type GatewaySessionAdmission,
  type GatewaySessionClient,
  type GatewaySessionLimits,
  type GatewaySessionRecord,
  type GatewaySessionStore,
} from '../store/sessions/gateway-session-store.js';

interface Row {
  userId: string;
  protocolVersion: string;
  client: GatewaySessionClient;
  searchScope: string;
  described: Set<string>;
  createdAt: number;
  lastUsedAt: number;
}

/**
 * {@link GatewaySessionStore} in this process's memory: the double of the database store for
 * tests of one gateway (several gateways sharing one instance behave as processes on one
 * database). Rows live until removed or swept, as in the database.
 */
export class MemoryGatewaySessionStore implements GatewaySessionStore {
  readonly #rows = new Map<string, Row>();

  /** Sessions stored now, of every user (expired ones until swept). */
  get size(): number {
    return this.#rows.size;
  }

  async admit(
    ctx: AgentContext,
    sessionId: string,
    limits: GatewaySessionLimits,
  ): Promise<GatewaySessionAdmission> {
    const now = ctx.clock.now();
    let open = 0;
    for (const row of this.#rows.values())
      if (row.userId === ctx.userId && row.lastUsedAt > now - limits.idleMs) open += 1;
    if (open >= limits.maxPerUser) return { admitted: false, open };
    this.#rows.set(sessionKey(sessionId), {
      userId: ctx.userId,
      protocolVersion: '',
      client: { capabilities: {}, clientInfo: {} },
      searchScope: '',
      described: new Set(),
      createdAt: now,
      lastUsedAt: now,
    });
    return { admitted: true };
  }

  async initialized(
    ctx: AgentContext,
    sessionId: string,
    init: { readonly protocolVersion: string; readonly client: GatewaySessionClient },
  ): Promise<void> {
    const row = this.#own(ctx, sessionId);
    if (row === undefined) return;
    row.protocolVersion = init.protocolVersion;
    row.client = structuredClone(init.client);
  }

  async find(
    ctx: AgentContext,
    sessionId: string,
    idleMs: number,
  ): Promise<GatewaySessionRecord | undefined> {
    const row = this.#own(ctx, sessionId);
    if (row === undefined || row.protocolVersion === '') return undefined;
    if (row.lastUsedAt <= ctx.clock.now() - idleMs) return undefined;
    return {
      userId: row.userId,
      protocolVersion: row.protocolVersion,
      client: structuredClone(row.client),
      searchScope: row.searchScope,
      described: [...row.described],
      createdAt: row.createdAt,
      lastUsedAt: row.lastUsedAt,
    };
  }

  async heldByAnother(ctx: AgentContext, sessionId: string): Promise<boolean> {
    const row = this.#rows.get(sessionKey(sessionId));
    return row !== undefined && row.userId !== ctx.userId;
  }

  async described(ctx: AgentContext, sessionId: string): Promise<string[]> {
    return [...(this.#own(ctx, sessionId)?.described ?? [])];
  }

  async addDescribed(
    ctx: AgentContext,
    sessionId: string,
    toolIds: readonly string[],
  ): Promise<void> {
    const row = this.#own(ctx, sessionId);
    for (const toolId of toolIds) row?.described.add(toolId);
  }

  async setSearchScope(ctx: AgentContext, sessionId: string, scope: string): Promise<void> {
    const row = this.#own(ctx, sessionId);
    if (row !== undefined) row.searchScope = scope;
  }

  async touch(ctx: AgentContext, sessionId: string, at: number): Promise<void> {
    const row = this.#own(ctx, sessionId);
    if (row !== undefined && row.lastUsedAt < at) row.lastUsedAt = at;
  }

  async remove(ctx: AgentContext, sessionId: string): Promise<boolean> {
    if (this.#own(ctx, sessionId) === undefined) return false;
    return this.#rows.delete(sessionKey(sessionId));
  }

  async existing(sessionIds: readonly string[]): Promise<Set<string>> {
    return new Set(sessionIds.filter((id) => this.#rows.has(sessionKey(id))));
  }

  async sweep(before: number, limit = 1_000): Promise<number> {
    let swept = 0;
    for (const [key, row] of this.#rows) {
      if (swept >= limit) break;
      if (row.lastUsedAt < before) {
        this.#rows.delete(key);
        swept += 1;
      }
    }
    return swept;
  }

  // The user's row by session id, or undefined (another user's is not theirs).
  #own(ctx: AgentContext, sessionId: string): Row | undefined {
    const row = this.#rows.get(sessionKey(sessionId));
    return row?.userId === ctx.userId ? row : undefined;
  }
}
