import type { ServerConfig } from '@mcp-agent/core';
import type { ConnectionRecord, ConnectionStatus } from '../repositories/connections.js';
import { compareText } from '@mcp-agent/core';

/** A server in effect for a tenant, after tiers, thread activation and the allow-list. */
export interface ActiveServer {
  readonly id: string;
  readonly scope: 'app' | 'user';
  readonly transport: ServerConfig['transport'];
  readonly name: string | undefined;
  readonly description: string | undefined;
  readonly status: ConnectionStatus;
  readonly lastError: string | null;
  readonly toolCount: number | null;
  readonly catalogVersion: number;
}

/** Options of `activeServers`. */
export interface ActiveServersOptions {
  /** The conversation; default the context's. A thread with activations narrows to them. */
  readonly threadId?: string;
  /** Call-level allow-list: only these ids, when given. Ids not otherwise active are ignored. */
  readonly allow?: readonly string[];
  /** Keep disabled servers (for status views); default false. */
  readonly includeDisabled?: boolean;
}

/** Why a server of the tenant is not in the active set, for availability reasons. */
export type Exclusion = 'disabled' | 'disabled_in_thread' | 'not_allowed';

/** One server of the tenant, before filtering, and why it would be filtered out. */
export interface TierEntry {
  readonly server: ActiveServer;
  readonly excludedBy: Exclusion | undefined;
}

/**
 * Merges the tiers: app servers, then user servers over them for the same id; then marks
 * disabled ones, ones outside the thread's activations (when it has any), and ones outside the
 * allow-list. Pure, so the same resolution serves `activeServers` and availability checks.
 */
export function resolveTiers(
  appServers: ReadonlyMap<string, ServerConfig>,
  rows: readonly ConnectionRecord[],
  activated: readonly string[],
  allow: readonly string[] | undefined,
): TierEntry[] {
  const byId = new Map<string, { server: ActiveServer; enabled: boolean }>();
  const rowsById = new Map(rows.map((row) => [row.providerId, row]));
  for (const config of appServers.values()) {
    const row = rowsById.get(config.id);
    if (row?.scope === 'user') continue;
    byId.set(config.id, {
      server: describe(config.id, 'app', config.transport, config.name, config.description, row),
      enabled: config.enabled,
    });
  }
  for (const row of rows) {
    if (row.scope !== 'user') continue;
    byId.set(row.providerId, {
      server: describe(
        row.providerId,
        'user',
        row.transport,
        row.config.name,
        row.config.description,
        row,
      ),
      enabled: row.enabled,
    });
  }
  const thread = new Set(activated);
  const allowed = allow === undefined ? undefined : new Set(allow);
  return [...byId.values()]
    .sort((a, b) => compareText(a.server.id, b.server.id))
    .map(({ server, enabled }) => ({
      server,
      excludedBy: !enabled
        ? 'disabled'
        : thread.size > 0 && !thread.has(server.id)
          ? 'disabled_in_thread'
          : allowed !== undefined && !allowed.has(server.id)
            ? 'not_allowed'
            : undefined,
    }));
}

function describe(
  id: string,
  scope: 'app' | 'user',
  transport: ServerConfig['transport'],
  name: string | undefined,
  description: string | undefined,
  row: ConnectionRecord | undefined,
): ActiveServer {
  return {
    id,
    scope,
    transport,
    name,
    description,
    status: row?.status ?? 'pending',
    lastError: row?.lastError ?? null,
    toolCount: row?.toolCount ?? null,
    catalogVersion: row?.catalogVersion ?? 0,
  };
}
