import type { CatalogUpdate } from '../repositories/tool-catalog.js';

/** What changed in a tenant's set of servers. */
export interface ServerChange {
  readonly userId: string;
  readonly providerId: string;
  readonly scope: 'app' | 'user';
}

/** Events a registry emits; the connection pool listens to connect, reconnect or close. */
export interface RegistryEvents {
  'server-registered': [ServerChange];
  'server-updated': [ServerChange];
  'server-removed': [ServerChange];
  'state-changed': [ServerChange & { readonly status: string; readonly lastError: string | null }];
  'catalog-changed': [ServerChange & { readonly update: CatalogUpdate }];
}
