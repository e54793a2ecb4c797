import type { OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { TokenVerifier } from './token-verifier.js';

/** Where the protected-resource metadata (RFC 9728) is served, under the public base URL. */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/**
 * The protected resources this server is: the whole server (the HTTP API) at its base URL, and
 * the gateway at `/mcp`. Each has its metadata at the RFC 9728 path for it.
 */
export type ProtectedResource = '' | '/mcp';

/** The metadata URL of `resource` on a server reached at `base` (no trailing slash). */
export function resourceMetadataUrl(base: string, resource: ProtectedResource): string {
  return `${base}${PROTECTED_RESOURCE_PATH}${resource}`;
}

/**
 * The protected-resource metadata (RFC 9728) of `resource`: its URI, the authorization servers
 * and scopes the verifier names, bearer tokens in the header only. This is what MCP clients read
 * after a 401 to find where to sign in.
 */
export function protectedResourceMetadata(
  base: string,
  resource: ProtectedResource,
  verifier: TokenVerifier | undefined,
): OAuthProtectedResourceMetadata {
  const scopes = verifier?.requiredScopes ?? [];
  const servers = verifier?.authorizationServers ?? [];
  return {
    resource: `${base}${resource}`,
    ...(servers.length === 0 ? {} : { authorization_servers: [...servers] }),
    ...(scopes.length === 0 ? {} : { scopes_supported: [...scopes] }),
    bearer_methods_supported: ['header'],
    resource_name: resource === '/mcp' ? 'mcp-agent gateway' : 'mcp-agent',
  };
}
