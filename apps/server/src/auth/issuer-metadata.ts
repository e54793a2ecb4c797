import { buildDiscoveryUrls } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { NotReadyError, toMcpAgentError } from '@mcp-agent/core';

/**
 * The JWKS URL of an issuer, from its metadata at the places the MCP SDK's discovery tries (RFC
 * 8414 `/.well-known/oauth-authorization-server`, then OpenID Connect
 * `/.well-known/openid-configuration`, both placements for an issuer with a path). Only `issuer`
 * and `jwks_uri` are read: the metadata must name the same issuer (RFC 8414 §3.3) and its keys.
 * A `NotReadyError` when none can be fetched.
 */
export async function discoverJwksUrl(issuer: string, fetch: FetchLike): Promise<URL> {
  for (const { url } of buildDiscoveryUrls(issuer)) {
    let response: Response;
    try {
      response = await fetch(url, { headers: { accept: 'application/json' } });
    } catch (thrown) {
      throw new NotReadyError(
        `Cannot read the metadata of the issuer ${issuer} at ${url.href}: ${toMcpAgentError(thrown).message}`,
      );
    }
    if (response.status >= 400 && response.status < 500) {
      await response.body?.cancel();
      continue;
    }
    const metadata = (await response.json().catch(() => undefined)) as
      { issuer?: unknown; jwks_uri?: unknown } | undefined;
    if (!response.ok || metadata === undefined)
      throw new NotReadyError(
        `The issuer ${issuer} answered ${response.status} at ${url.href}, not its metadata; retry later.`,
      );
    if (
      typeof metadata.issuer !== 'string' ||
      withoutSlash(metadata.issuer) !== withoutSlash(issuer)
    )
      throw new NotReadyError(
        `The metadata at ${url.href} names another issuer, ${String(metadata.issuer)}; check --issuer.`,
      );
    if (typeof metadata.jwks_uri !== 'string' || !URL.canParse(metadata.jwks_uri))
      throw new NotReadyError(
        `The metadata of the issuer ${issuer} names no jwks_uri; pass its JWKS URL (--jwks-url).`,
      );
    return new URL(metadata.jwks_uri);
  }
  throw new NotReadyError(
    `The issuer ${issuer} serves no metadata at /.well-known/oauth-authorization-server or /.well-known/openid-configuration; pass its JWKS URL (--jwks-url).`,
  );
}

function withoutSlash(url: string): string {
  return url.replace(/\/$/, '');
}
