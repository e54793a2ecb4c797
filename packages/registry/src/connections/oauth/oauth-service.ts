import { createHash, timingSafeEqual } from 'node:crypto';
import {
  auth,
  extractWWWAuthenticateParams,
  type AuthResult,
} from '@modelcontextprotocol/sdk/client/auth.js';
import {
  ConfigError,
  ExpiringCache,
  UnauthorizedError,
  type AgentContext,
  type ServerConfig,
} from '@mcp-agent/core';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { notFound } from '../../store/repositories/connections.js';
import type { AuthConfigRepository } from '../../store/repositories/auth-configs.js';
import type { ConnectionStateUpdate } from '../../store/repositories/connections.js';
import { guardedFetch } from '../net/guarded-fetch.js';
import {
  OAUTH_FIELDS,
  VaultOAuthProvider,
  type RecordedIssuer,
  type StoredTokens,
} from './vault-oauth-provider.js';
import { repositoriesOf, type TenantStore } from '../../store/tenant-store.js';
import { VaultTokenStore, type TokenStore } from './token-store.js';

/** A `fetch` with credentials added. */
export type AuthorizedFetch = (
  input: string | URL | Request,
  init?: RequestInit,
) => Promise<Response>;

/** What a server's last 401 or 403 said (RFC 6750 / RFC 9728 challenge parameters). */
export interface AuthChallenge {
  readonly status: number;
  readonly resourceMetadataUrl?: string;
  readonly scope?: string;
  readonly error?: string;
}

/** Where to discover and what to ask for, as a challenge told us. */
export interface AuthorizationHints {
  readonly resourceMetadataUrl?: string;
  readonly scope?: string;
}

/** Options of {@link OAuthService}. */
export interface OAuthServiceOptions {
  /** Refresh this long before the access token expires; default 60 s. */
  readonly refreshSkewMs?: number;
  /** A state older than this is refused at the callback; default 10 minutes. */
  readonly stateTtlMs?: number;
  /** `client_name` sent in dynamic client registration (shown on consent); default `mcp-agent`. */
  readonly clientName?: string;
  /** A client ID metadata document URL to offer servers that accept them (CIMD). */
  readonly clientMetadataUrl?: string;
  /**
   * Development only: let discovery, registration and token requests use plain http and
   * private or loopback addresses (a local authorisation server). Off by default (AUTH-05).
   */
  readonly allowPrivateNetwork?: boolean;
  /** Where tokens and the rest of an authorisation are kept; default the registry's vault. */
  readonly tokens?: TokenStore;
}

/**
 * What the OAuth flows need of the store (`Registry` is one): the tenant store (its accounts and
 * secrets for the tokens, the auth settings it saved, the audit log where a sign-in and a
 * disconnect are recorded as the user's acts) and the server definitions in effect.
 */
export interface OAuthStore extends TenantStore {
  resolveServer(ctx: AgentContext, serverId: string): Promise<ServerConfig>;
  recordState(ctx: AgentContext, serverId: string, update: ConnectionStateUpdate): Promise<unknown>;
}

/**
 * OAuth for remote MCP servers on the SDK's own helpers (discovery, dynamic client
 * registration, PKCE S256, resource indicators, refresh), persisted in the vault. Refreshes are
 * proactive and single-flight per (tenant, server): however many calls wait, one token request
 * is made. A refused refresh (`invalid_grant`) marks the account `needs_auth`.
 */
export class OAuthService {
  readonly #refreshing = new Map<string, Promise<string>>();
  // The last challenge of each (tenant, server): bounded, and forgotten after the state's lifetime.
  readonly #challenges: ExpiringCache<string, AuthChallenge>;
  readonly #skewMs: number;
  readonly #stateTtlMs: number;
  readonly #fetch: FetchLike;
  readonly #tokens: TokenStore;
  readonly #authConfigs: Pick<AuthConfigRepository, 'upsert' | 'find'>;

  constructor(
    private readonly registry: OAuthStore,
    private readonly options: OAuthServiceOptions = {},
  ) {
    this.#authConfigs = repositoriesOf(registry).authConfigs;
    this.#tokens = options.tokens ?? new VaultTokenStore(repositoriesOf(registry));
    this.#skewMs = options.refreshSkewMs ?? 60_000;
    this.#stateTtlMs = options.stateTtlMs ?? 10 * 60_000;
    this.#challenges = new ExpiringCache({ maxEntries: 10_000, ttlMs: this.#stateTtlMs });
    this.#fetch = guardedFetch({ allowPrivateNetwork: options.allowPrivateNetwork === true });
  }

  /**
   * Starts authorisation; returns the URL to show the user (never opened here). `hints` come
   * from the server's challenge (see `lastChallenge`): where its resource metadata is, and which
   * scope to ask for (only what it asked for: minimal scopes, step-up on demand).
   * @throws ConfigError (`CONFIG_INVALID`) for a stdio server or a redirect URI that is not https
   *   (or http on loopback); ServerNotFoundError; PolicyDeniedError for a private discovery URL.
   */
  async startOAuth(
    ctx: AgentContext,
    serverId: string,
    redirectUri: string,
    hints: AuthorizationHints = {},
  ): Promise<{
    /** Where to send the user; empty when the stored tokens were still valid. */
    authorizationUrl: string;
  }> {
    const serverUrl = await this.#serverUrl(ctx, serverId);
    const redirect = checkRedirect(redirectUri);
    await this.#authConfigs.upsert(ctx, {
      serverId,
      kind: 'oauth',
      settings: { redirectUri: redirect, ...definedHints(hints) },
    });
    const provider = this.#provider(ctx, serverId, redirect);
    await provider.invalidateCredentials('tokens');
    const result = await auth(provider, { serverUrl, fetchFn: this.#fetch, ...sdkHints(hints) });
    if (result !== 'REDIRECT' || provider.authorizationUrl === undefined) {
      return { authorizationUrl: '' }; // already authorised (tokens were valid)
    }
    return { authorizationUrl: provider.authorizationUrl.toString() };
  }

  /**
   * Completes authorisation at the callback: checks the state, then the issuer (`iss`, RFC 9207:
   * a mix-up attack sends a code from another authorisation server), then exchanges the code.
   * Pass the callback's `iss` query parameter when it has one.
   * @throws UnauthorizedError (`UNAUTHORIZED`): state wrong, reused or expired, issuer mix-up.
   */
  async finalizeOAuth(
    ctx: AgentContext,
    serverId: string,
    code: string,
    state: string,
    iss?: string,
  ): Promise<void> {
    const serverUrl = await this.#serverUrl(ctx, serverId);
    const stored = await this.#tokens.get(ctx, serverId, OAUTH_FIELDS.state);
    const expected =
      stored === undefined
        ? undefined
        : (JSON.parse(stored) as { value: string; createdAt: number });
    // Compared before anything is deleted: a wrong state, from anyone, leaves the user's
    // pending login as it was (API-04); the right one is used up here, whatever follows.
    if (expected === undefined || typeof state !== 'string' || !sameSecret(state, expected.value)) {
      throw new UnauthorizedError(
        'The authorisation callback does not match a pending authorisation (missing, wrong or reused state). Start it again.',
      );
    }
    await this.#tokens.remove(ctx, serverId, [OAUTH_FIELDS.state]);
    if (ctx.clock.now() - expected.createdAt > this.#stateTtlMs) {
      throw new UnauthorizedError('The authorisation took too long and expired. Start it again.');
    }
    await this.#checkIssuer(ctx, serverId, iss);
    const settings = (await this.#authConfigs.find(ctx, serverId))?.settings;
    const redirect = typeof settings?.redirectUri === 'string' ? settings.redirectUri : '';
    const result = await auth(this.#provider(ctx, serverId, redirect), {
      serverUrl,
      fetchFn: this.#fetch,
      authorizationCode: code,
      ...sdkHints(hintsFrom(settings)),
    });
    if (result !== 'AUTHORIZED')
      throw new UnauthorizedError('The authorisation server did not issue tokens. Start again.');
    await this.registry.recordAudit(ctx, { action: 'oauth.signed_in', serverId });
  }

  async #checkIssuer(ctx: AgentContext, serverId: string, iss: string | undefined) {
    const stored = await this.#tokens.get(ctx, serverId, OAUTH_FIELDS.issuer);
    if (stored === undefined) return; // no discovery happened: nothing to compare with
    const recorded = JSON.parse(stored) as RecordedIssuer;
    if (iss === undefined || iss === '') {
      if (recorded.issRequired)
        throw new UnauthorizedError(
          'The authorisation response has no issuer (iss) although its server promised one; it may come from another server. Start it again.',
        );
      return;
    }
    if (iss !== recorded.issuer)
      throw new UnauthorizedError(
        `The authorisation response comes from issuer "${iss}", not from "${recorded.issuer}" where it was sent; the code was not used. Start it again.`,
      );
  }

  /**
   * A valid access token, refreshed first when it is about to expire (single-flight).
   * @throws UnauthorizedError (`UNAUTHORIZED`, reason `needs_auth`): no tokens, refresh refused.
   */
  async accessToken(ctx: AgentContext, serverId: string, force = false): Promise<string> {
    const tokens = await this.#storedTokens(ctx, serverId);
    if (tokens === undefined) throw this.#needsAuth(serverId, 'it was never authorised');
    const fresh =
      tokens.expires_at === undefined || tokens.expires_at - ctx.clock.now() > this.#skewMs;
    if (fresh && !force) return tokens.access_token;
    const key = `${ctx.userId}\u0000${serverId}`;
    let pending = this.#refreshing.get(key);
    if (pending === undefined) {
      pending = this.#refresh(ctx, serverId, tokens).finally(() => this.#refreshing.delete(key));
      this.#refreshing.set(key, pending);
    }
    return pending;
  }

  /**
   * A `fetch` for the pool's transports: adds the bearer token (refreshed when due) and retries
   * once after a 401. Without tokens the request goes out bare, so the server's 401 and its
   * challenge (kept for `lastChallenge`) tell the host how to authorise. `base` sends the
   * requests: the pool passes a guarded fetch for tenants' servers in a multi-tenant service.
   */
  fetchFor(
    ctx: AgentContext,
    serverId: string,
    base: typeof globalThis.fetch = fetch,
  ): AuthorizedFetch {
    return async (input, init) => {
      const send = async (token: string | undefined) => {
        const headers = new Headers(init?.headers);
        if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
        const response = await base(input, { ...init, headers });
        if (response.status === 401 || response.status === 403)
          this.#remember(ctx, serverId, response);
        return response;
      };
      const token =
        (await this.#storedTokens(ctx, serverId)) === undefined
          ? undefined
          : await this.accessToken(ctx, serverId);
      const response = await send(token);
      if (response.status !== 401 || token === undefined) return response;
      await response.body?.cancel();
      // Another caller may have refreshed meanwhile; only force a refresh if the token is the same.
      const current = await this.accessToken(ctx, serverId);
      return send(current !== token ? current : await this.accessToken(ctx, serverId, true));
    };
  }

  /** The last 401/403 challenge a server sent this tenant (to re-authorise or step up). */
  lastChallenge(ctx: AgentContext, serverId: string): AuthChallenge | undefined {
    return this.#challenges.get(`${ctx.userId}\u0000${serverId}`);
  }

  #remember(ctx: AgentContext, serverId: string, response: Response): AuthChallenge {
    const params = extractWWWAuthenticateParams(response);
    const challenge: AuthChallenge = {
      status: response.status,
      ...(params.resourceMetadataUrl === undefined
        ? {}
        : { resourceMetadataUrl: params.resourceMetadataUrl.toString() }),
      ...(params.scope === undefined ? {} : { scope: params.scope }),
      ...(params.error === undefined ? {} : { error: params.error }),
    };
    this.#challenges.set(`${ctx.userId}\u0000${serverId}`, challenge);
    return challenge;
  }

  /** Deletes the tenant's tokens and client registration for the server. */
  async disconnect(ctx: AgentContext, serverId: string): Promise<void> {
    await this.#tokens.disconnect(ctx, serverId);
    await this.registry.recordAudit(ctx, { action: 'oauth.disconnected', serverId });
  }

  async #refresh(ctx: AgentContext, serverId: string, tokens: StoredTokens): Promise<string> {
    if (tokens.refresh_token === undefined)
      throw this.#needsAuth(serverId, 'the access token expired and there is no refresh token');
    const serverUrl = await this.#serverUrl(ctx, serverId);
    const settings = (await this.#authConfigs.find(ctx, serverId))?.settings;
    const provider = this.#provider(
      ctx,
      serverId,
      typeof settings?.redirectUri === 'string' ? settings.redirectUri : '',
    );
    let result: AuthResult;
    try {
      result = await auth(provider, {
        serverUrl,
        fetchFn: this.#fetch,
        ...sdkHints(hintsFrom(settings)),
      });
    } catch (error) {
      await this.#markNeedsAuth(ctx, serverId);
      throw this.#needsAuth(serverId, `the refresh was refused (${(error as Error).message})`);
    }
    const next = await this.#storedTokens(ctx, serverId);
    if (
      result !== 'AUTHORIZED' ||
      next === undefined ||
      next.access_token === tokens.access_token
    ) {
      await this.#markNeedsAuth(ctx, serverId);
      throw this.#needsAuth(serverId, 'the refresh token was refused (invalid_grant)');
    }
    return next.access_token;
  }

  async #markNeedsAuth(ctx: AgentContext, serverId: string): Promise<void> {
    await this.#tokens.setStatus(ctx, serverId, 'needs_auth');
    await this.registry
      .recordState(ctx, serverId, {
        status: 'needs_auth',
        lastError: 'authorisation expired; re-authorise',
      })
      .catch(() => undefined);
  }

  #needsAuth(serverId: string, why: string): UnauthorizedError {
    return new UnauthorizedError(
      `Server "${serverId}" needs authorisation: ${why}. Sign in to it again.`,
      {
        details: { serverId, reason: 'needs_auth' },
      },
    );
  }

  async #storedTokens(ctx: AgentContext, serverId: string): Promise<StoredTokens | undefined> {
    const text = await this.#tokens.get(ctx, serverId, OAUTH_FIELDS.tokens);
    return text === undefined ? undefined : (JSON.parse(text) as StoredTokens);
  }

  async #serverUrl(ctx: AgentContext, serverId: string): Promise<string> {
    const config = await this.registry.resolveServer(ctx, serverId).catch(() => undefined);
    if (config === undefined) throw notFound(serverId);
    if (config.transport === 'stdio')
      throw new ConfigError(`Server "${serverId}" runs over stdio; OAuth is for remote servers.`);
    return config.url;
  }

  #provider(ctx: AgentContext, serverId: string, redirectUri: string): VaultOAuthProvider {
    return new VaultOAuthProvider(
      this.#tokens,
      ctx,
      serverId,
      redirectUri,
      this.options.clientName,
      this.options.clientMetadataUrl,
    );
  }
}

function definedHints(hints: AuthorizationHints): Record<string, string> {
  return Object.fromEntries(
    Object.entries(hints).filter(([, v]) => typeof v === 'string'),
  ) as Record<string, string>;
}

function hintsFrom(settings: Record<string, unknown> | undefined): AuthorizationHints {
  return {
    ...(typeof settings?.resourceMetadataUrl === 'string'
      ? { resourceMetadataUrl: settings.resourceMetadataUrl }
      : {}),
    ...(typeof settings?.scope === 'string' ? { scope: settings.scope } : {}),
  };
}

function sdkHints(hints: AuthorizationHints): { resourceMetadataUrl?: URL; scope?: string } {
  return {
    ...(hints.resourceMetadataUrl === undefined
      ? {}
      : { resourceMetadataUrl: new URL(hints.resourceMetadataUrl) }),
    ...(hints.scope === undefined ? {} : { scope: hints.scope }),
  };
}

// AUTH-04/AUTH-13: only http(s) redirect URIs, exactly as registered; loopback for http.
// Constant time whatever the lengths: both sides are hashed to 32 bytes first.
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function checkRedirect(uri: string): string {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new ConfigError('The redirect URI is not a URL.');
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ConfigError('The redirect URI must be https, or http on a loopback address.');
  }
  return url.toString();
}
