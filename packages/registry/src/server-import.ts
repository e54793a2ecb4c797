import {
  McpAgentError,
  parseServerConfigFile,
  type AgentContext,
  type ParseConfigFileOptions,
  type ServerConfig,
} from '@mcp-agent/core';
import type { RegistryChange } from './store/changes/change-feed.js';
import type { Executor } from './store/database/executor.js';
import type { AuditLogRepository } from './store/repositories/audit-log.js';
import type { ConnectionRepository } from './store/repositories/connections.js';
import { checkUserServer, type UserServerPolicy } from './store/availability/user-server-policy.js';
import type { TenantFolder } from './store/availability/tenant-folder.js';
import type { ImportResult } from './registry-options.js';

/**
 * What an import needs of the registry: its stores, its policy for user servers, and the road
 * its changes take to listeners. Passed in rather than reached through `Registry`, so the import
 * rules read on their own and the registry keeps one concept: who has which servers.
 */
export interface ImportTarget {
  /** The registry's own handle, so a write through it counts as the registry's write. */
  readonly db: Executor;
  readonly connections: ConnectionRepository;
  readonly audit: AuditLogRepository;
  readonly userServerPolicy: UserServerPolicy;
  tenantFolder(ctx: AgentContext): TenantFolder;
  /** Emits a change here and announces it to the other processes. */
  announce(change: RegistryChange): Promise<void>;
}

/**
 * Imports an `mcpServers` or VS Code file as user servers, all or nothing: the file is
 * validated whole first, then written in one transaction, secrets into the vault. With
 * `partial`, the valid and allowed servers are written and the others listed in `rejected`.
 */
export async function importServerFile(
  target: ImportTarget,
  ctx: AgentContext,
  file: unknown,
  options: ParseConfigFileOptions = {},
): Promise<ImportResult> {
  const parsed = parseServerConfigFile(file, options);
  const rejected = [...parsed.rejected];
  const servers: ServerConfig[] = [];
  // All or nothing: one refused server refuses the file before anything is written.
  for (const server of parsed.servers) {
    try {
      checkUserServer(target.userServerPolicy, server, target.tenantFolder(ctx));
      servers.push(server);
    } catch (error) {
      if (options.partial !== true || !McpAgentError.isInstance(error)) throw error;
      rejected.push({ id: server.id, issues: [{ path: server.id, message: error.message }] });
    }
  }
  const existing = new Set(
    (await target.connections.list(ctx)).filter((r) => r.scope === 'user').map((r) => r.serverId),
  );
  await target.db.transaction().execute(async (trx) => {
    for (const server of servers) await target.connections.upsertUserServer(ctx, server, trx);
  });
  for (const server of servers) {
    await target.audit.record(ctx, {
      action: existing.has(server.id) ? 'server.updated' : 'server.added',
      serverId: server.id,
      detail: { transport: server.transport, imported: true },
    });
    await target.announce({
      kind: existing.has(server.id) ? 'server-updated' : 'server-registered',
      change: { userId: ctx.userId, serverId: server.id, scope: 'user' },
    });
  }
  return {
    imported: servers.map((s) => s.id),
    ignored: parsed.ignored,
    ...(options.partial === true ? { rejected } : {}),
  };
}
