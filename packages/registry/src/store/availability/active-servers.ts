import type { ServerConfig } from '@mcp-agent/core';
import type { ConnectionRecord, ConnectionStatus } from '../repositories/connections.js';
import { compareText } from '@mcp-agent/core';

/** A server in effect for a tenant, after tiers, thread activation and the allow-list. */
export interface ActiveServer {
  /** The server's id, unique within the tenant: a user server shadows an app server's id. */
  readonly id: string;
  /** `app`: the operator's, for every user; `user`: the tenant's own. */
  readonly scope: 'app' | 'user';
  /** How it is reached: a local child process (`stdio`) or a URL. */
  readonly transport: ServerConfig['transport'];
  /** Display name from its definition, if it has one. */
  readonly name: string | undefined;
  /** What it is for, from its definition: shown in the inventory view. */
  readonly description: string | undefined;
  /** Last recorded readiness; `pending` when this tenant never connected to it. */
  readonly status: ConnectionStatus;
  /** Why the last attempt failed, as recorded; `null` after a success. */
  readonly lastError: string | null;
  /** Tools listed at the last discovery; `null` until one succeeded. */
  readonly toolCount: number | null;
  /** Version of the cached tool list, bumped on each change; `0` before the first discovery. */
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
  /** The server as it would be in effect. */
  readonly server: ActiveServer;
  /** Why it is out of the active set; `undefined` when it is in. */
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
  const rowsById = new Map(rows.map((row) => [row.serverId, row]));
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
    byId.set(row.serverId, {
      server: describe(
        row.serverId,
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
