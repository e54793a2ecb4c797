import { errors, jwtVerify, type JWSAlgorithm, type JWTPayload } from 'jose';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  checkUserId,
  ConfigError,
  NotReadyError,
  PolicyDeniedError,
  silentLogger,
  UnauthorizedError,
  type Logger,
} from '@mcp-agent/core';
import { guardedFetch } from '@mcp-agent/registry';
import type { TokenVerifier, VerifiedToken } from './token-verifier.js';
import { discoverJwksUrl } from './issuer-metadata.js';
import { JwksKeySet } from './jwks-key-set.js';

/** The signature algorithms a JWT may use: asymmetric only, since the keys come from a JWKS. */
export type JwtAlgorithm = Extract<
  JWSAlgorithm,
  | 'RS256'
  | 'RS384'
  | 'RS512'
  | 'PS256'
  | 'PS384'
  | 'PS512'
  | 'ES256'
  | 'ES384'
  | 'ES512'
  | 'EdDSA'
  | 'Ed25519'
>;

const ASYMMETRIC: ReadonlySet<string> = new Set<JwtAlgorithm>([
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
]);

/** Options of {@link JwtVerifier}. */
export interface JwtVerifierOptions {
  /** The issuer (`iss`), e.g. `https://login.example.com/realms/acme`. */
  readonly issuer: string;
  /**
   * This server's resource URI(s) (RFC 8707): a token is accepted only when its `aud` names one.
   * `protectedResourceAudiences(publicUrl)` gives the base URL and its `/mcp`.
   */
  readonly audience: string | readonly string[];
  /** The issuer's JWKS; by default discovered from its metadata. */
  readonly jwksUrl?: string;
  /** The claim that names the user (tenant); `sub`. */
  readonly userClaim?: string;
  /** Scopes every token must grant (`scope` or `scp`); one missing is a 403. None by default. */
  readonly requiredScopes?: readonly string[];
  /** The algorithm allow-list; RS256, PS256, ES256 and EdDSA by default. */
  readonly algorithms?: readonly JwtAlgorithm[];
  /** Leeway for `exp`, `nbf` and an `iat` in the future, in seconds; 30. */
  readonly clockSkewSeconds?: number;
  /**
   * The oldest token accepted, in seconds since its `iat` (which it must then carry), whatever
   * its `exp` says; none by default (`--max-token-age`).
   */
  readonly maxTokenAgeSeconds?: number;
  /**
   * Fetches of the JWKS for tokens with an unknown `kid` start at most once per this window; such
   * a token waits for the next one (at most the window) rather than being refused; 5 s.
   */
  readonly jwksCooldownMs?: number;
  /** The JWKS is refreshed in the background after its `max-age`, at most this long; 10 min. */
  readonly jwksMaxAgeMs?: number;
  /**
   * Development only: the issuer may be plain http or on a private or loopback address
   * (`MCP_AGENT_OAUTH_ALLOW_PRIVATE=1` in `main.js`). Off: https and public addresses only.
   */
  readonly allowPrivateNetwork?: boolean;
  /** Sends the metadata and JWKS requests (after the address checks); `fetch` by default. */
  readonly fetch?: FetchLike;
  /** Where refusals are logged: the reason only, never the token. */
  readonly logger?: Logger;
}

// After a failed discovery, requests wait this long before another is tried.
const DISCOVERY_RETRY_MS = 5_000;

/**
 * Verifies JWT access tokens from the operator's issuer with `jose`: the signature against the
 * issuer's JWKS (`JwksKeySet`: refreshed by its cache headers; an unknown `kid` waits for
 * the next fetch, at most one per window), `iss`, `aud` (this server's resource URI), `exp`
 * (required), `nbf` and `iat` (not in the future) with a small skew, an optional maximum age, and
 * the algorithm allow-list (`alg: none` and HMAC never pass). The user is the `sub` claim or the
 * configured one, held to core's user-id rule (`parseUserId`: refused, never repaired). Usable on its own:
 * `await verifier.verify(token)`.
 */
export class JwtVerifier implements TokenVerifier {
  readonly authorizationServers: readonly string[];
  readonly requiredScopes: readonly string[];
  readonly #issuers: string[];
  readonly #audiences: string[];
  readonly #userClaim: string;
  readonly #algorithms: JWSAlgorithm[];
  readonly #clockSkewSeconds: number;
  readonly #fetch: FetchLike;
  readonly #options: JwtVerifierOptions;
  readonly #logger: Logger;
  #keys: Promise<JwksKeySet['resolve']> | undefined;
  #failedAt = -Infinity;
  #failure: NotReadyError | undefined;

  constructor(options: JwtVerifierOptions) {
    const issuer = checkedUrl(options.issuer, '--issuer', options.allowPrivateNetwork === true);
    if (options.jwksUrl !== undefined)
      checkedUrl(options.jwksUrl, '--jwks-url', options.allowPrivateNetwork === true);
    const audiences = typeof options.audience === 'string' ? [options.audience] : options.audience;
    if (audiences.length === 0 || audiences.some((a) => a.trim() === ''))
      throw new ConfigError(
        "A JWT verifier needs this server's resource URI as the audience: pass --audience, or --public-url to derive it.",
      );
    const algorithms = options.algorithms ?? ['RS256', 'PS256', 'ES256', 'EdDSA'];
    const refused = algorithms.filter((a) => !ASYMMETRIC.has(a));
    if (algorithms.length === 0 || refused.length > 0)
      throw new ConfigError(
        `JWT algorithms must be asymmetric ones, since the keys come from the issuer's JWKS (RS256, PS256, ES256, EdDSA…); refused: ${refused.join(', ') || 'an empty list'}.`,
      );
    this.#options = options;
    this.#issuers = withAndWithoutSlash([issuer]);
    this.#audiences = withAndWithoutSlash(audiences);
    this.#userClaim = options.userClaim ?? 'sub';
    this.#algorithms = [...algorithms];
    this.#clockSkewSeconds = options.clockSkewSeconds ?? 30;
    const maxAge = options.maxTokenAgeSeconds;
    if (maxAge !== undefined && !(Number.isInteger(maxAge) && maxAge > 0))
      throw new ConfigError(
        `The maximum token age is a positive whole number of seconds; got ${String(maxAge)}.`,
      );
    this.requiredScopes = [...(options.requiredScopes ?? [])];
    this.authorizationServers = [issuer];
    this.#logger = options.logger ?? silentLogger;
    this.#fetch = guardedFetch({
      allowPrivateNetwork: options.allowPrivateNetwork === true,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      label: 'OIDC issuer URL',
      hint: 'set MCP_AGENT_OAUTH_ALLOW_PRIVATE=1 (allowPrivateNetwork) for an issuer on this host or a private network',
    });
  }

  /**
   * The user and scopes of a valid token.
   *
   * @throws UnauthorizedError (`UNAUTHORIZED`, 401) when the token is refused; the message says why.
   * @throws PolicyDeniedError (`POLICY_DENIED`, 403) when it lacks a scope this server requires.
   * @throws NotReadyError (`NOT_READY`, 503) when the issuer's keys cannot be fetched now.
   */
  async verify(token: string): Promise<VerifiedToken> {
    const keys = await this.#jwks();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: this.#issuers,
        audience: this.#audiences,
        algorithms: this.#algorithms,
        clockTolerance: this.#clockSkewSeconds,
        requiredClaims: ['exp'],
        ...(this.#options.maxTokenAgeSeconds === undefined
          ? {}
          : { maxTokenAge: this.#options.maxTokenAgeSeconds }),
      }));
    } catch (thrown) {
      throw this.#refusal(thrown);
    }
    // jose checks `iat` against the clock only with a maximum age; a token from the future is
    // refused here either way (AUTH-19).
    if (typeof payload.iat === 'number' && payload.iat > Date.now() / 1000 + this.#clockSkewSeconds)
      throw this.#refused('its issue time (iat) is in the future');
    const claimed = payload[this.#userClaim];
    if (typeof claimed !== 'string' || claimed === '')
      throw this.#refused(`it has no "${this.#userClaim}" claim naming the user`);
    // Compared exactly, as OIDC compares `sub`: a look-alike of another user's id is refused,
    // never trimmed or normalised onto it (AUTH-22).
    const check = checkUserId(claimed);
    if (!check.ok)
      throw this.#refused(
        `its "${this.#userClaim}" claim is not a valid user id (${check.problem})`,
      );
    const { userId } = check;
    const scopes = scopesOf(payload);
    const missing = this.requiredScopes.filter((scope) => !scopes.includes(scope));
    if (missing.length > 0) {
      this.#logger.info({ reason: 'insufficient scope', missing }, 'JWT refused');
      throw new PolicyDeniedError(
        `The token does not grant the scope${missing.length > 1 ? 's' : ''} ${missing.join(' ')}, which this server requires; sign in again asking for them.`,
        { details: { requiredScopes: [...this.requiredScopes] } },
      );
    }
    return { userId, scopes, ...(payload.exp === undefined ? {} : { expiresAt: payload.exp }) };
  }

  // The key resolver, after discovering the JWKS URL once; a failed discovery is retried, but
  // not more than once per DISCOVERY_RETRY_MS whatever the traffic.
  async #jwks(): Promise<JwksKeySet['resolve']> {
    if (this.#keys === undefined) {
      if (this.#failure !== undefined && Date.now() - this.#failedAt < DISCOVERY_RETRY_MS)
        throw this.#failure;
      const options = this.#options;
      this.#keys = (async () => {
        const url =
          options.jwksUrl === undefined
            ? await discoverJwksUrl(this.authorizationServers[0] as string, this.#fetch)
            : new URL(options.jwksUrl);
        return new JwksKeySet({
          url,
          fetch: this.#fetch,
          refetchWindowMs: options.jwksCooldownMs ?? 5_000,
          maxAgeMs: options.jwksMaxAgeMs ?? 600_000,
          logger: this.#logger,
        }).resolve;
      })();
      this.#keys.catch((error: unknown) => {
        this.#keys = undefined;
        this.#failedAt = Date.now();
        this.#failure = NotReadyError.isInstance(error)
          ? error
          : new NotReadyError(`Cannot set up the issuer's keys: ${(error as Error).message}`);
        this.#logger.warn({ reason: this.#failure.message }, 'JWT issuer not reachable');
      });
    }
    try {
      return await this.#keys;
    } catch {
      throw this.#failure as NotReadyError;
    }
  }

  // What a jose error means for the caller: a refused token (401), or keys we cannot fetch (503).
  #refusal(thrown: unknown): Error {
    if (!(thrown instanceof errors.JOSEError) || KEY_FETCH_FAILURES.has(thrown.code)) {
      const reason = thrown instanceof Error ? thrown.message : String(thrown);
      this.#logger.warn({ reason }, "JWT not checked: the issuer's keys cannot be fetched");
      return new NotReadyError(`The issuer's keys cannot be fetched right now (${reason}); retry.`);
    }
    if (thrown instanceof errors.JWTExpired)
      return this.#refused(
        thrown.claim === 'iat'
          ? `it is older than the ${String(this.#options.maxTokenAgeSeconds)} s this server accepts (its iat)`
          : 'it has expired',
      );
    if (thrown instanceof errors.JWTClaimValidationFailed)
      return this.#refused(
        CLAIM_REASONS[thrown.claim] ?? `its "${thrown.claim}" claim: ${thrown.reason}`,
      );
    if (thrown instanceof errors.JOSEAlgNotAllowed)
      return this.#refused(
        `its algorithm is not one this server accepts (${this.#algorithms.join(', ')})`,
      );
    if (thrown instanceof errors.JWKSNoMatchingKey)
      return this.#refused('it is signed with a key the issuer does not publish');
    if (thrown instanceof errors.JWSSignatureVerificationFailed)
      return this.#refused('its signature does not verify');
    return this.#refused('it is not a well-formed signed JWT');
  }

  #refused(reason: string): UnauthorizedError {
    this.#logger.info({ reason }, 'JWT refused');
    return new UnauthorizedError(`The token was refused: ${reason}.`, { details: { reason } });
  }
}

/**
 * The resource URIs of a server at `publicUrl` (RFC 8707): the base URL (the HTTP API and the
 * server as a whole) and its `/mcp` (the gateway, as MCP clients name it).
 */
export function protectedResourceAudiences(publicUrl: string): string[] {
  const base = publicUrl.replace(/\/+$/, '');
  return [base, `${base}/mcp`];
}

const KEY_FETCH_FAILURES: ReadonlySet<string> = new Set([
  errors.JOSEError.code,
  errors.JWKSTimeout.code,
  errors.JWKSInvalid.code,
]);

const CLAIM_REASONS: Readonly<Record<string, string>> = {
  iss: 'it was issued by another issuer',
  aud: 'it is meant for another resource (its audience is not this server)',
  nbf: 'it is not valid yet (nbf)',
  exp: 'it has no expiry (exp)',
  iat: 'its issue time (iat) is missing, invalid or in the future',
};

// RFC 9068 `scope` is a space-separated string; some issuers send `scp`, a string or a list.
function scopesOf(payload: JWTPayload): string[] {
  const raw = payload.scope ?? payload.scp;
  if (typeof raw === 'string') return raw.split(' ').filter(Boolean);
  if (Array.isArray(raw)) return raw.filter((s): s is string => typeof s === 'string');
  return [];
}

function withAndWithoutSlash(urls: readonly string[]): string[] {
  return [
    ...new Set(urls.flatMap((url) => [url.replace(/\/$/, ''), `${url.replace(/\/$/, '')}/`])),
  ];
}

function checkedUrl(value: string, flag: string, allowHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${flag} "${value}" is not a URL; e.g. https://login.example.com.`);
  }
  if (
    url.search ||
    url.hash ||
    !(url.protocol === 'https:' || (allowHttp && url.protocol === 'http:'))
  )
    throw new ConfigError(
      `${flag} "${value}" must be an https URL without query or fragment${allowHttp ? '' : ' (plain http only with MCP_AGENT_OAUTH_ALLOW_PRIVATE=1, for development)'}.`,
    );
  return value;
}
