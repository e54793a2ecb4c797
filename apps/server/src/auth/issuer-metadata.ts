import { discoverAuthorizationServerMetadata } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { NotReadyError, PolicyDeniedError, toMcpAgentError } from '@mcp-agent/core';

/**
 * The JWKS URL of an issuer, from its metadata: RFC 8414 `/.well-known/oauth-authorization-server`
 * first, then OpenID Connect `/.well-known/openid-configuration` (both placements for an issuer
 * with a path, as the MCP SDK's discovery tries them). The metadata must name the same issuer
 * (RFC 8414 §3.3) and a `jwks_uri`. A `NotReadyError` when it cannot be fetched.
 */
export async function discoverJwksUrl(issuer: string, fetch: FetchLike): Promise<URL> {
  let metadata: Awaited<ReturnType<typeof discoverAuthorizationServerMetadata>>;
  try {
    metadata = await discoverAuthorizationServerMetadata(issuer, { fetchFn: fetch });
  } catch (thrown) {
    const reason = PolicyDeniedError.isInstance(thrown)
      ? thrown.message
      : toMcpAgentError(thrown).message;
    throw new NotReadyError(`Cannot read the metadata of the issuer ${issuer}: ${reason}`);
  }
  if (metadata === undefined)
    throw new NotReadyError(
      `The issuer ${issuer} serves no metadata at /.well-known/oauth-authorization-server or /.well-known/openid-configuration; pass its JWKS URL (--jwks-url).`,
    );
  if (withoutSlash(metadata.issuer) !== withoutSlash(issuer))
    throw new NotReadyError(
      `The metadata found for the issuer ${issuer} names another issuer, ${metadata.issuer}; check --issuer.`,
    );
  const jwks = (metadata as { jwks_uri?: unknown }).jwks_uri;
  if (typeof jwks !== 'string')
    throw new NotReadyError(
      `The metadata of the issuer ${issuer} names no jwks_uri; pass its JWKS URL (--jwks-url).`,
    );
  return new URL(jwks);
}

function withoutSlash(url: string): string {
  return url.replace(/\/$/, '');
}
