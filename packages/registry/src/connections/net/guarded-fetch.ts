import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { Agent, fetch as undiciFetch } from 'undici';
import { PolicyDeniedError } from '@mcp-agent/core';
import { isPrivateAddress } from '../../store/availability/private-address.js';

/** Options of {@link guardedFetch}. */
export interface GuardedFetchOptions {
  /**
   * Development only: allow plain http and private, loopback and link-local addresses (a local
   * authorisation server). Off by default.
   */
  readonly allowPrivateNetwork?: boolean;
  /**
   * Sends the checked requests. By default undici's fetch over a connection whose own address
   * lookup is checked too, so the address connected to is one that passed; a custom `fetch`
   * gets the URL checks only (its connections resolve names again).
   */
  readonly fetch?: FetchLike;
  /** Resolves a host name to every address it has; the system resolver by default. */
  readonly resolve?: (host: string) => Promise<string[]>;
  /** Redirect hops followed, each one checked; one more is refused. Default 5. */
  readonly maxRedirects?: number;
  /** What the URLs are, in errors; default "OAuth URL". */
  readonly label?: string;
  /** How to allow a private URL anyway, appended to errors; default the OAuth opt-in. */
  readonly hint?: string;
}

/**
 * A `fetch` for URLs that others chose: OAuth discovery, registration and token requests, whose
 * URLs come from the servers themselves, and, in a multi-tenant service, the tenants' own MCP
 * servers (`resource_metadata`, `authorization_servers`, `token_endpoint`): https
 * only, and never to a private or reserved address, checked for every resolved address and on
 * every redirect hop (SSRF). The WHATWG URL parser already turns `0177.0.0.1` and `0x7f000001`
 * into `127.0.0.1`.
 *
 * The returned fetch rejects with PolicyDeniedError (`POLICY_DENIED`) for a URL that is not
 * https, a host with any private or reserved address, or too many redirects; the message names
 * the origin (never the path or query) and how to allow it.
 *
 * @example
 * ```ts
 * const fetchChecked = guardedFetch({ label: 'Webhook URL' });
 * await fetchChecked('http://169.254.169.254/latest/meta-data'); // rejects: POLICY_DENIED
 * ```
 */
export function guardedFetch(options: GuardedFetchOptions = {}): FetchLike {
  if (options.allowPrivateNetwork === true) return options.fetch ?? fetch;
  const resolve =
    options.resolve ??
    (async (host: string) => (await lookup(host, { all: true })).map((entry) => entry.address));
  const label = options.label ?? 'OAuth URL';
  const hint = options.hint ?? 'set MCP_AGENT_OAUTH_ALLOW_PRIVATE=1 only for local development';
  const send = options.fetch ?? pinnedFetch(resolve, label);
  const maxRedirects = options.maxRedirects ?? 5;

  const check = async (url: URL) => {
    if (url.protocol !== 'https:')
      throw new PolicyDeniedError(`${label} ${url.origin} is not https; refused (${hint}).`);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const addresses = isIP(host) === 0 ? await resolve(host) : [host];
    if (addresses.length === 0 || addresses.some(isPrivateAddress))
      throw new PolicyDeniedError(
        `${label} ${url.origin} points at a private or reserved address; refused (${hint}).`,
      );
  };

  return async (input, init) => {
    let url = new URL(input instanceof URL ? input.href : input);
    for (let hop = 0; ; hop += 1) {
      await check(url);
      const response = await send(url, { ...init, redirect: 'manual' }).catch((error: unknown) => {
        // undici wraps a refused lookup in "fetch failed": surface the refusal itself.
        throw PolicyDeniedError.isInstance((error as Error).cause) ? (error as Error).cause : error;
      });
      const location = response.headers.get('location');
      const method = (init?.method ?? 'GET').toUpperCase();
      // Only reads are followed: a redirected token request is handed back, not replayed.
      if (response.status < 300 || response.status >= 400 || location === null || method !== 'GET')
        return response;
      if (hop === maxRedirects)
        throw new PolicyDeniedError(
          `${label} ${url.origin} redirected more than ${maxRedirects} times.`,
        );
      await response.body?.cancel();
      url = new URL(location, url);
    }
  };
}

/**
 * undici's fetch on an agent whose connections look addresses up through {@link checkedLookup}:
 * checking a name and then letting the connection resolve it again would leave a window for DNS
 * rebinding (public at the check, 127.0.0.1 at the connect).
 */
function pinnedFetch(resolve: (host: string) => Promise<string[]>, label: string): FetchLike {
  const agent = new Agent({ connect: { lookup: checkedLookup(resolve, label) } });
  return async (url, init) =>
    (await undiciFetch(url, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher: agent,
    })) as unknown as Response;
}

/** A `net` lookup that refuses a name any of whose addresses is private or reserved. */
export function checkedLookup(
  resolve: (host: string) => Promise<string[]>,
  label = 'OAuth URL',
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        if (addresses.length === 0 || addresses.some(isPrivateAddress)) {
          const refused = new PolicyDeniedError(
            `${label} host ${hostname} resolved to a private or reserved address when connecting; refused.`,
          );
          callback(refused, '', 0);
        } else if (options.all === true) {
          const all = addresses.map((address) => ({ address, family: isIP(address) }));
          (
            callback as unknown as (error: null, all: { address: string; family: number }[]) => void
          )(null, all);
        } else callback(null, addresses[0]!, isIP(addresses[0]!));
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
