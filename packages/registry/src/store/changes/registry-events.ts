import type { CatalogUpdate } from '../repositories/tool-catalog.js';

/** What changed in a tenant's set of servers. */
export interface ServerChange {
  /** The tenant whose servers changed; listeners must not act for another tenant. */
  readonly userId: string;
  /** The server that changed. */
  readonly serverId: string;
  /** `user` for the tenant's own server, `app` for the operator's. */
  readonly scope: 'app' | 'user';
}

/**
 * Events a registry emits; the connection pool listens to connect, reconnect or close. They
 * come from this process's writes and, through the change feed, from other processes'.
 *
 * @example
 * ```ts
 * registry.events.on('catalog-changed', ({ userId, serverId, update }) => {
 *   if (update.flagged.length > 0) logger.warn({ userId, serverId }, 'tools flagged');
 * });
 * ```
 */
export interface RegistryEvents {
  /** A user server was added. */
  'server-registered': [ServerChange];
  /** A user server's definition changed, or it was enabled or disabled: reconnect or close. */
  'server-updated': [ServerChange];
  /** A user server was removed with its secrets and catalog: close its connection. */
  'server-removed': [ServerChange];
  /** A server's recorded readiness changed (from the pool, or an OAuth flow). */
  'state-changed': [
    ServerChange & {
      /** The new status (a `ConnectionStatus`). */
      readonly status: string;
      /** Why it failed; `null` when it did not. */
      readonly lastError: string | null;
    },
  ];
  /** A server's tool list changed, or was stored for the first time: drop cached tools. */
  'catalog-changed': [
    ServerChange & {
      /** What changed: names added, removed and changed, and the new version. */
      readonly update: CatalogUpdate;
    },
  ];
}
