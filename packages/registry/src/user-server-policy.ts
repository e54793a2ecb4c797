import { isIP } from 'node:net';
import { PolicyDeniedError, type ServerConfig } from '@mcp-agent/core';
import { isPrivateAddress } from './net/private-address.js';

/**
 * A stdio server tenants may register: this command with exactly these arguments, and at most
 * these environment variable names (values are the tenant's). Anything else would let a tenant
 * run code of its choosing on the host (`node -e`, `sh -c`, `NODE_OPTIONS=--import …`).
 */
export interface StdioAllowEntry {
  readonly command: string;
  readonly args?: readonly string[];
  readonly env?: readonly string[];
}

/** What tenants may register as their own servers (app servers are the operator's, unchecked). */
export interface UserServerPolicy {
  /** `any` (one user who owns this host), `none`, or only the listed commands. */
  readonly stdio: 'any' | 'none' | readonly StdioAllowEntry[];
  /**
   * `any`, or `public`: https URLs whose every address is public, checked again on every
   * connection and redirect (no cloud metadata, no localhost:6379).
   */
  readonly remote: 'any' | 'public';
}

/** The default: the CLI and library, where the only user owns the machine. */
export const SINGLE_USER_POLICY: UserServerPolicy = Object.freeze({ stdio: 'any', remote: 'any' });

/** For a multi-tenant service: no commands on the host, public https servers only. */
export const MULTI_TENANT_POLICY: UserServerPolicy = Object.freeze({
  stdio: 'none',
  remote: 'public',
});

/** Throws `PolicyDeniedError` when `server`, a tenant's own server, breaks `policy`. */
export function checkUserServer(policy: UserServerPolicy, server: ServerConfig): void {
  if (server.transport === 'stdio') {
    if (policy.stdio === 'any') return;
    const refuse = (why: string) =>
      new PolicyDeniedError(
        `Server "${server.id}" is refused: ${why}. A stdio server runs a command on this host, so this service only accepts the commands its operator allows; use a remote (https) server instead, or ask the operator to allow this one.`,
      );
    if (policy.stdio === 'none') throw refuse('this service accepts no stdio servers');
    const entry = policy.stdio.find(
      (allowed) =>
        allowed.command === server.command &&
        sameList(allowed.args ?? [], server.args) &&
        server.cwd === undefined,
    );
    if (entry === undefined) throw refuse('this command and these arguments are not allowed');
    const extra = Object.keys(server.env).filter((name) => !(entry.env ?? []).includes(name));
    if (extra.length > 0) throw refuse(`the environment variable ${extra[0]} is not allowed`);
    return;
  }
  if (policy.remote === 'any') return;
  const url = new URL(server.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol !== 'https:')
    throw new PolicyDeniedError(
      `Server "${server.id}" is refused: ${url.origin} is not https; this service accepts https servers only.`,
    );
  // Names are resolved, and their addresses checked, when connecting (guardedFetch).
  if (isIP(host) !== 0 && isPrivateAddress(host))
    throw new PolicyDeniedError(
      `Server "${server.id}" is refused: ${url.origin} is a private or reserved address.`,
    );
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
