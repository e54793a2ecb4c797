import { ConfigError } from '@mcp-agent/core';

/** How the server learns the URL its users reach it at (behind a reverse proxy it differs). */
export interface PublicUrlOptions {
  /** The public base URL, e.g. `https://agent.example.com` (a path prefix is kept). */
  readonly publicUrl?: string;
  /** Believe `X-Forwarded-Proto` and `X-Forwarded-Host`: only behind a proxy that sets them. */
  readonly trustProxy?: boolean;
}

/** Checks a configured public URL: absolute http(s), no query or fragment; no trailing slash. */
export function checkPublicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(
      `The public URL "${value}" is not a URL; e.g. https://agent.example.com.`,
    );
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search || url.hash)
    throw new ConfigError(
      `The public URL "${value}" must be an http(s) base URL without query or fragment; e.g. https://agent.example.com.`,
    );
  return url.toString().replace(/\/+$/, '');
}

/**
 * The base URL that users reach this server at, for links handed out (OAuth redirect URIs):
 * the configured public URL; else, when the proxy is trusted, the forwarded scheme and host;
 * else the request's own origin. Forwarded headers are ignored unless trusted: any client can
 * send them.
 */
export function publicBaseUrl(
  requestUrl: string,
  header: (name: string) => string | undefined,
  options: PublicUrlOptions,
): string {
  if (options.publicUrl !== undefined) return options.publicUrl;
  const own = new URL(requestUrl);
  if (options.trustProxy !== true) return own.origin;
  // A chain of proxies appends: the first value is what the client used.
  const first = (name: string) => header(name)?.split(',')[0]?.trim() || undefined;
  const proto = first('x-forwarded-proto')?.toLowerCase();
  const scheme = proto === 'https' || proto === 'http' ? proto : own.protocol.slice(0, -1);
  const host = first('x-forwarded-host') ?? own.host;
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return own.origin;
  }
}
