import { isIP } from 'node:net';
import { PolicyDeniedError, type ServerConfig, type StdioServerConfig } from '@mcp-agent/core';
import { isPrivateAddress } from './private-address.js';
import { ensureTenantFolder, type TenantFolder } from './tenant-folder.js';
import {
  envRules,
  envValueProblem,
  launchEnvironment,
  type AllowedEnv,
} from './user-server-policy-env.js';

/**
 * A stdio server tenants may register: this command with exactly these arguments, and at most
 * these environment variables. Anything else would let a tenant run code of its choosing on the
 * host (`node -e`, `sh -c`, `NODE_OPTIONS=--import …`). Values are the tenant's, within the
 * rule of each name (`{"NAME": {"value" | "pattern" | "path"}}`; a bare list of names means no
 * rule): by default a value naming a path must stay inside the tenant's own folder.
 */
export interface StdioAllowEntry {
  /** The command, compared as written (`npx`, `/usr/bin/node`): no path lookup, no globbing. */
  readonly command: string;
  /** The arguments, all of them, in order; default none. */
  readonly args?: readonly string[];
  /** The environment variables the tenant may set, with a rule for each value; default none. */
  readonly env?: AllowedEnv;
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

/**
 * Throws `PolicyDeniedError` when `server`, a tenant's own server, breaks `policy`. `folder` is
 * the tenant's own folder, which paths in an allow-listed server's environment must stay in.
 */
export function checkUserServer(
  policy: UserServerPolicy,
  server: ServerConfig,
  folder?: TenantFolder,
): void {
  if (server.transport === 'stdio') {
    allowedStdio(policy, server, folder);
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

/**
 * The definition to launch a checked tenant server with. A server from an allowlist runs in the
 * tenant's folder (created if missing), with the operator's fixed values set and `path` values
 * made absolute; the check runs again first, since links in the folder may have changed.
 */
export function launchUserServer(
  policy: UserServerPolicy,
  server: ServerConfig,
  folder: TenantFolder,
): ServerConfig {
  if (server.transport !== 'stdio') {
    checkUserServer(policy, server, folder);
    return server;
  }
  const entry = allowedStdio(policy, server, folder);
  if (entry === undefined) return server;
  return {
    ...server,
    env: launchEnvironment(server.env, envRules(entry.env), folder),
    cwd: ensureTenantFolder(folder),
  };
}

// The allowlist entry `server` matches (undefined under `any`); throws when there is none, or
// when an environment variable or its value is not allowed.
function allowedStdio(
  policy: UserServerPolicy,
  server: StdioServerConfig,
  folder: TenantFolder | undefined,
): StdioAllowEntry | undefined {
  if (policy.stdio === 'any') return undefined;
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
  const rules = envRules(entry.env);
  for (const [name, value] of Object.entries(server.env)) {
    const rule = rules.get(name);
    if (rule === undefined) throw refuse(`the environment variable ${name} is not allowed`);
    const problem = envValueProblem(name, value, rule, folder);
    if (problem !== undefined) throw refuse(problem);
  }
  return entry;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
