import { createHmac, randomBytes } from 'node:crypto';
import type { Attributes } from '@opentelemetry/api';

/** How spans and metrics name the tenant: a keyed hash, or not at all. */
export type TenantAttributeMode = 'hash' | 'omit';

/** The attribute that carries the (hashed) tenant on spans and per-tenant metrics. */
export const TENANT_ATTRIBUTE = 'mcp_agent.tenant';

interface TenantSetting {
  mode: TenantAttributeMode;
  key: Buffer;
  cache: Map<string, string>;
}

// Shared by every copy of this package in a process (the compat shims may load a second one).
const SETTING = Symbol.for('mcp-agent.telemetry.tenant');
const MAX_CACHED = 1_000;

function setting(): TenantSetting {
  const holder = globalThis as { [SETTING]?: TenantSetting };
  // A random key until the operator sets one: hashes then hold within this process only.
  holder[SETTING] ??= { mode: 'hash', key: randomBytes(32), cache: new Map() };
  return holder[SETTING];
}

/**
 * Chooses how telemetry names tenants: `hash` (the default) records an HMAC-SHA-256 of the user
 * id under `key`, cut to 16 hex digits, which no one can reverse without the key; `omit` records
 * nothing. Without a key, a random one is made per process; give the same key to every process
 * to keep a tenant's hash across restarts.
 */
export function configureTenantAttribute(options: {
  /** `hash` (the default) or `omit`. */
  readonly mode: TenantAttributeMode;
  /** The HMAC key, a secret of the operator's; an empty or absent key keeps the current one. */
  readonly key?: string;
}): void {
  const current = setting();
  current.mode = options.mode;
  if (options.key !== undefined && options.key !== '') current.key = Buffer.from(options.key);
  current.cache.clear();
}

/** The tenant as telemetry records it: `{ 'mcp_agent.tenant': <hash> }`, or nothing. */
export function tenantAttributes(userId: string): Attributes {
  const hashed = tenantHash(userId);
  return hashed === undefined ? {} : { [TENANT_ATTRIBUTE]: hashed };
}

/** The tenant's hash as telemetry records it, or `undefined` when tenants are omitted. */
export function tenantHash(userId: string): string | undefined {
  const current = setting();
  if (current.mode === 'omit') return undefined;
  let hashed = current.cache.get(userId);
  if (hashed === undefined) {
    hashed = createHmac('sha256', current.key).update(userId).digest('hex').slice(0, 16);
    if (current.cache.size >= MAX_CACHED) current.cache.clear();
    current.cache.set(userId, hashed);
  }
  return hashed;
}
