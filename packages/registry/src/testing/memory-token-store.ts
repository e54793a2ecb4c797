import type { AgentContext } from '@mcp-agent/core';
import type { OAuthField, TokenStore } from '../connections/oauth/token-store.js';
import type { AccountStatus } from '../store/repositories/accounts.js';

/** A `TokenStore` in memory, per tenant and server: for tests of the OAuth client alone. */
export class MemoryTokenStore implements TokenStore {
  readonly #fields = new Map<string, string>();
  readonly #status = new Map<string, AccountStatus>();

  async get(ctx: AgentContext, serverId: string, field: OAuthField): Promise<string | undefined> {
    return this.#fields.get(key(ctx, serverId, field));
  }

  async put(ctx: AgentContext, serverId: string, field: OAuthField, value: string): Promise<void> {
    this.#fields.set(key(ctx, serverId, field), value);
  }

  async remove(ctx: AgentContext, serverId: string, fields: readonly OAuthField[]): Promise<void> {
    for (const field of fields) this.#fields.delete(key(ctx, serverId, field));
  }

  async setStatus(ctx: AgentContext, serverId: string, status: AccountStatus): Promise<void> {
    this.#status.set(key(ctx, serverId, ''), status);
  }

  async disconnect(ctx: AgentContext, serverId: string): Promise<void> {
    const prefix = key(ctx, serverId, '');
    for (const k of [...this.#fields.keys()]) if (k.startsWith(prefix)) this.#fields.delete(k);
    this.#status.set(prefix, 'disconnected');
  }

  /** The account status last set for the tenant's server. */
  status(ctx: AgentContext, serverId: string): AccountStatus | undefined {
    return this.#status.get(key(ctx, serverId, ''));
  }
}

function key(ctx: AgentContext, serverId: string, field: string): string {
  return `${ctx.userId}\u0000${serverId}\u0000${field}`;
}
