import { ConfigError, type Environment, type Logger } from '@mcp-agent/core';
import type { TokenVerifier } from './token-verifier.js';
import { JwtVerifier, protectedResourceAudiences, type JwtAlgorithm } from './jwt-verifier.js';
import { TokenFileVerifier } from './token-file-verifier.js';

/** The sign-in flags of main.js, each with its environment variable (the flag wins). */
export const AUTH_FLAGS = [
  { flag: 'tokens', env: 'MCP_AGENT_TOKENS_FILE' },
  { flag: 'issuer', env: 'MCP_AGENT_OIDC_ISSUER' },
  { flag: 'audience', env: 'MCP_AGENT_OIDC_AUDIENCE' },
  { flag: 'jwks-url', env: 'MCP_AGENT_OIDC_JWKS_URL' },
  { flag: 'user-claim', env: 'MCP_AGENT_OIDC_USER_CLAIM' },
  { flag: 'required-scopes', env: 'MCP_AGENT_OIDC_REQUIRED_SCOPES' },
  { flag: 'algorithms', env: 'MCP_AGENT_OIDC_ALGORITHMS' },
  { flag: 'clock-skew', env: 'MCP_AGENT_OIDC_CLOCK_SKEW' },
  { flag: 'max-token-age', env: 'MCP_AGENT_OIDC_MAX_TOKEN_AGE' },
] as const;

/** The `parseArgs` options of {@link AUTH_FLAGS}. */
export const AUTH_FLAG_OPTIONS: Record<string, { type: 'string' }> = Object.fromEntries(
  AUTH_FLAGS.map((f) => [f.flag, { type: 'string' as const }]),
);

/** How the server signs callers in, as configured. */
export interface AuthConfig {
  /** The verifier the flags and variables describe. */
  readonly verifier: TokenVerifier;
  /** Said at start: which verifiers are in force. */
  readonly description: string;
  /** Stops watching the token file. */
  close(): void;
}

/**
 * Reads how callers sign in from parsed flags and the environment: static tokens from a token
 * file (`--tokens`), JWTs from an issuer (`--issuer`), or both (a JWT-shaped token that is not in
 * the file goes to the issuer). The audience is `--audience`, else derived from the public URL.
 * A `ConfigError` says what is missing or wrong and which flag and variable set it.
 */
export function readAuthConfig(
  flags: Readonly<Record<string, unknown>>,
  env: Environment,
  context: { readonly publicUrl?: string; readonly logger: Logger },
): AuthConfig {
  const value = (flag: (typeof AUTH_FLAGS)[number]['flag']): string | undefined => {
    const entry = AUTH_FLAGS.find((f) => f.flag === flag);
    const raw = flags[flag] ?? (entry === undefined ? undefined : env[entry.env]);
    return raw === undefined || raw === '' ? undefined : String(raw);
  };
  const list = (flag: (typeof AUTH_FLAGS)[number]['flag']) =>
    value(flag)
      ?.split(/[\s,]+/)
      .filter(Boolean);
  const tokensFile = value('tokens');
  const issuer = value('issuer');
  if (tokensFile === undefined && issuer === undefined)
    throw new ConfigError(
      'Say how callers sign in: --tokens <file> (MCP_AGENT_TOKENS_FILE; create it with "mcp-agent tokens add <user> --tokens <file>"), or --issuer <url> (MCP_AGENT_OIDC_ISSUER) for JWTs from your identity provider, or both.',
    );
  const file =
    tokensFile === undefined
      ? undefined
      : TokenFileVerifier.open(tokensFile, { logger: context.logger });
  let jwt: JwtVerifier | undefined;
  if (issuer !== undefined) {
    const audience =
      list('audience') ??
      (context.publicUrl === undefined ? undefined : protectedResourceAudiences(context.publicUrl));
    if (audience === undefined)
      throw new ConfigError(
        "JWT sign-in needs this server's resource URI, which tokens must name as their audience: pass --public-url https://… (MCP_AGENT_PUBLIC_URL), or --audience (MCP_AGENT_OIDC_AUDIENCE).",
      );
    const skew = value('clock-skew');
    if (skew !== undefined && !/^\d+$/.test(skew))
      throw new ConfigError(
        `--clock-skew (MCP_AGENT_OIDC_CLOCK_SKEW) is a whole number of seconds; got "${skew}".`,
      );
    const maxAge = value('max-token-age');
    if (maxAge !== undefined && !/^[1-9]\d*$/.test(maxAge))
      throw new ConfigError(
        `--max-token-age (MCP_AGENT_OIDC_MAX_TOKEN_AGE) is a positive whole number of seconds; got "${maxAge}".`,
      );
    const scopes = list('required-scopes');
    const algorithms = list('algorithms');
    const jwksUrl = value('jwks-url');
    const userClaim = value('user-claim');
    jwt = new JwtVerifier({
      issuer,
      audience,
      allowPrivateNetwork: env.MCP_AGENT_OAUTH_ALLOW_PRIVATE === '1',
      logger: context.logger,
      ...(jwksUrl === undefined ? {} : { jwksUrl }),
      ...(userClaim === undefined ? {} : { userClaim }),
      ...(scopes === undefined ? {} : { requiredScopes: scopes }),
      ...(algorithms === undefined ? {} : { algorithms: algorithms as JwtAlgorithm[] }),
      ...(skew === undefined ? {} : { clockSkewSeconds: Number(skew) }),
      ...(maxAge === undefined ? {} : { maxTokenAgeSeconds: Number(maxAge) }),
    });
  }
  const described = [
    ...(file === undefined ? [] : [`static tokens from ${tokensFile} (${file.size})`]),
    ...(jwt === undefined ? [] : [`JWTs from ${issuer}`]),
  ].join(' and ');
  return {
    verifier:
      file === undefined ? (jwt as JwtVerifier) : jwt === undefined ? file : either(file, jwt),
    description: described,
    close: () => file?.close(),
  };
}

// Static tokens first (a digest lookup); a JWT-shaped token the file does not know goes to the
// issuer. Revocations come from the file; the metadata names the issuer.
function either(file: TokenFileVerifier, jwt: JwtVerifier): TokenVerifier {
  return {
    authorizationServers: jwt.authorizationServers,
    requiredScopes: jwt.requiredScopes,
    onRevoke: (listener) => file.onRevoke(listener),
    async verify(token, digest) {
      const user = await file.verify(token, digest);
      if (user !== undefined || token.split('.').length !== 3) return user;
      return jwt.verify(token);
    },
  };
}
