import { randomBytes } from 'node:crypto';
import type {
  OAuthClientProvider,
  OAuthDiscoveryState,
} from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { AgentContext } from '@mcp-agent/core';
import { OAUTH_FIELDS, type OAuthField, type TokenStore } from './token-store.js';

export { OAUTH_FIELDS };

/** The authorisation server a pending authorisation was sent to, for the RFC 9207 `iss` check. */
export interface RecordedIssuer {
  readonly issuer: string;
  /** The server promised to put `iss` on every authorisation response. */
  readonly issRequired: boolean;
}

/** Stored tokens: the server's answer plus when the access token expires. */
export interface StoredTokens extends OAuthTokens {
  /** When the access token expires (epoch ms, from `expires_in`); absent: treated as never. */
  readonly expires_at?: number;
}

/**
 * The MCP SDK's `OAuthClientProvider` for one (tenant, provider), persisting everything —
 * tokens, the dynamic client registration, the PKCE verifier and the state — in the
 * encrypted vault. The authorisation URL the SDK produces is captured, never opened: the host
 * shows it to the user.
 */
export class VaultOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;

  constructor(
    private readonly store: TokenStore,
    private readonly ctx: AgentContext,
    private readonly serverId: string,
    private readonly redirectUri: string,
    private readonly clientName = 'mcp-agent',
    /** A client ID metadata document URL, used where the server supports them (CIMD). */
    readonly clientMetadataUrl?: string,
  ) {}

  get redirectUrl(): string {
    return this.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.clientName,
      redirect_uris: [this.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  async state(): Promise<string> {
    const value = randomBytes(24).toString('base64url');
    await this.#put(OAUTH_FIELDS.state, JSON.stringify({ value, createdAt: this.ctx.clock.now() }));
    return value;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    return this.#getJson<OAuthClientInformationMixed>(OAUTH_FIELDS.client);
  }

  async saveClientInformation(information: OAuthClientInformationMixed): Promise<void> {
    await this.#put(OAUTH_FIELDS.client, JSON.stringify(information));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const stored = await this.#getJson<StoredTokens>(OAUTH_FIELDS.tokens);
    if (stored === undefined) return undefined;
    const { expires_at: expiresAt, ...tokens } = stored;
    return expiresAt === undefined
      ? tokens
      : {
          ...tokens,
          expires_in: Math.max(0, Math.floor((expiresAt - this.ctx.clock.now()) / 1000)),
        };
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const stored: StoredTokens = {
      ...tokens,
      ...(tokens.expires_in === undefined
        ? {}
        : { expires_at: this.ctx.clock.now() + tokens.expires_in * 1000 }),
    };
    await this.#put(OAUTH_FIELDS.tokens, JSON.stringify(stored));
    await this.store.setStatus(this.ctx, this.serverId, 'active');
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    const metadata = state.authorizationServerMetadata as
      { issuer?: string; authorization_response_iss_parameter_supported?: boolean } | undefined;
    const recorded: RecordedIssuer = {
      issuer: metadata?.issuer ?? state.authorizationServerUrl,
      issRequired: metadata?.authorization_response_iss_parameter_supported === true,
    };
    await this.#put(OAUTH_FIELDS.issuer, JSON.stringify(recorded));
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.authorizationUrl = authorizationUrl;
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.#put(OAUTH_FIELDS.verifier, codeVerifier);
  }

  async codeVerifier(): Promise<string> {
    const verifier = await this.store.get(this.ctx, this.serverId, OAUTH_FIELDS.verifier);
    if (verifier === undefined)
      throw new Error('No PKCE verifier is stored: start the authorisation again.');
    return verifier;
  }

  async invalidateCredentials(
    scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery',
  ): Promise<void> {
    const fields: readonly OAuthField[] =
      scope === 'all'
        ? Object.values(OAUTH_FIELDS)
        : scope === 'client'
          ? [OAUTH_FIELDS.client]
          : scope === 'tokens'
            ? [OAUTH_FIELDS.tokens]
            : scope === 'verifier'
              ? [OAUTH_FIELDS.verifier]
              : [OAUTH_FIELDS.issuer];
    await this.store.remove(this.ctx, this.serverId, fields);
  }

  async #put(field: OAuthField, value: string): Promise<void> {
    await this.store.put(this.ctx, this.serverId, field, value);
  }

  async #getJson<T>(field: OAuthField): Promise<T | undefined> {
    const text = await this.store.get(this.ctx, this.serverId, field);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }
}
