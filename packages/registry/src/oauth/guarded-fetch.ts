import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { PolicyDeniedError } from '@mcp-agent/core';

/** Options of {@link guardedFetch}. */
export interface GuardedFetchOptions {
  /**
   * Development only: allow plain http and private, loopback and link-local addresses (a local
   * authorisation server). Off by default.
   */
  readonly allowPrivateNetwork?: boolean;
  readonly fetch?: FetchLike;
  /** Resolves a host name to every address it has; the system resolver by default. */
  readonly resolve?: (host: string) => Promise<string[]>;
  readonly maxRedirects?: number;
}

// Loopback, private, link-local (cloud metadata), carrier-grade NAT, multicast and reserved.
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

/** Whether an address is one an OAuth URL must never reach (IPv4-mapped IPv6 included). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true; // not an address: refuse rather than guess
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * A `fetch` for OAuth discovery, registration and token requests, whose URLs come from the
 * servers themselves (`resource_metadata`, `authorization_servers`, `token_endpoint`): https
 * only, and never to a private or reserved address, checked for every resolved address and on
 * every redirect hop (SSRF). The WHATWG URL parser already turns `0177.0.0.1` and `0x7f000001`
 * into `127.0.0.1`.
 */
export function guardedFetch(options: GuardedFetchOptions = {}): FetchLike {
  const send = options.fetch ?? fetch;
  if (options.allowPrivateNetwork === true) return send;
  const resolve =
    options.resolve ??
    (async (host: string) => (await lookup(host, { all: true })).map((entry) => entry.address));
  const maxRedirects = options.maxRedirects ?? 5;

  const check = async (url: URL) => {
    if (url.protocol !== 'https:')
      throw new PolicyDeniedError(
        `OAuth URL ${url.origin} is not https; authorisation servers must use https (set MCP_AGENT_OAUTH_ALLOW_PRIVATE=1 only for local development).`,
      );
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const addresses = isIP(host) === 0 ? await resolve(host) : [host];
    if (addresses.length === 0 || addresses.some(isPrivateAddress))
      throw new PolicyDeniedError(
        `OAuth URL ${url.origin} points at a private or reserved address; refused (set MCP_AGENT_OAUTH_ALLOW_PRIVATE=1 only for local development).`,
      );
  };

  return async (input, init) => {
    let url = new URL(input instanceof URL ? input.href : input);
    for (let hop = 0; ; hop += 1) {
      await check(url);
      const response = await send(url, { ...init, redirect: 'manual' });
      const location = response.headers.get('location');
      const method = (init?.method ?? 'GET').toUpperCase();
      // Only reads are followed: a redirected token request is handed back, not replayed.
      if (response.status < 300 || response.status >= 400 || location === null || method !== 'GET')
        return response;
      if (hop === maxRedirects)
        throw new PolicyDeniedError(
          `OAuth URL ${url.origin} redirected more than ${maxRedirects} times.`,
        );
      await response.body?.cancel();
      url = new URL(location, url);
    }
  };
}
