import type { AgentContext } from '@mcp-agent/core';
import type { AccountRepository, AccountStatus } from '../../store/repositories/accounts.js';
import type { SecretRepository } from '../../store/repositories/secrets.js';

/** What the vault token store needs of the store's repositories: accounts and their secrets. */
export interface AccountSecrets {
  readonly accounts: Pick<
    AccountRepository,
    'getSecret' | 'putSecret' | 'find' | 'upsert' | 'disconnect'
  >;
  readonly secrets: Pick<SecretRepository, 'remove'>;
}
/** The fields an OAuth authorisation keeps, by role. */
export const OAUTH_FIELDS = {
  tokens: 'oauth_tokens',
  client: 'oauth_client',
  verifier: 'pkce_verifier',
  state: 'oauth_state',
  issuer: 'oauth_issuer',
} as const;

/** One of the fields an OAuth authorisation keeps per (tenant, server). */
export type OAuthField = (typeof OAUTH_FIELDS)[keyof typeof OAUTH_FIELDS];

/**
 * Where the OAuth client keeps a tenant's tokens, client registration, PKCE verifier, state and
 * issuer for one server, and the account's status: the seam under `VaultOAuthProvider`.
 * `VaultTokenStore` keeps them encrypted in the registry; `MemoryTokenStore` (`./testing`) in memory.
 */
export interface TokenStore {
  /** The tenant's `field` for `serverId`, or `undefined` when none is kept. */
  get(ctx: AgentContext, serverId: string, field: OAuthField): Promise<string | undefined>;
  /** Keeps `value` as the tenant's `field` for `serverId`, replacing any before it. */
  put(ctx: AgentContext, serverId: string, field: OAuthField, value: string): Promise<void>;
  /** Deletes those fields (a finished sign-in drops its verifier and state); absent ones are fine. */
  remove(ctx: AgentContext, serverId: string, fields: readonly OAuthField[]): Promise<void>;
  /** Records where the tenant's account for `serverId` stands (connected, expired…). */
  setStatus(ctx: AgentContext, serverId: string, status: AccountStatus): Promise<void>;
  /** Marks the account disconnected and deletes every field. */
  disconnect(ctx: AgentContext, serverId: string): Promise<void>;
}

/** The registry's token store: the tenant's connected account, its fields in the vault. */
export class VaultTokenStore implements TokenStore {
  constructor(private readonly repositories: AccountSecrets) {}

  get(ctx: AgentContext, serverId: string, field: OAuthField): Promise<string | undefined> {
    return this.repositories.accounts.getSecret(ctx, serverId, field);
  }

  put(ctx: AgentContext, serverId: string, field: OAuthField, value: string): Promise<void> {
    return this.repositories.accounts.putSecret(ctx, serverId, field, value);
  }

  async remove(ctx: AgentContext, serverId: string, fields: readonly OAuthField[]): Promise<void> {
    const account = await this.repositories.accounts.find(ctx, serverId);
    if (account === undefined) return;
    for (const field of fields)
      await this.repositories.secrets.remove(ctx, { kind: 'account', id: account.id }, field);
  }

  async setStatus(ctx: AgentContext, serverId: string, status: AccountStatus): Promise<void> {
    await this.repositories.accounts.upsert(ctx, { serverId, status });
  }

  async disconnect(ctx: AgentContext, serverId: string): Promise<void> {
    await this.repositories.accounts.disconnect(ctx, serverId);
  }
}
