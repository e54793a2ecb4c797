import {
  toolNameProblem,
  type AgentContext,
  type JsonObject,
  canonicalHash,
  compareText,
} from '@mcp-agent/core';
import { notFound } from './connections.js';
import type { Executor } from '../database/executor.js';
import { timestamp } from '../database/timestamp.js';
import type { ToolFinding } from '../catalog/tool-findings.js';

/** One cached tool, as its server listed it. */
export interface CatalogTool {
  /** The tool's name, unique within its server. */
  readonly name: string;
  /** The whole MCP tool object as listed (description, schemas, annotations): untrusted text. */
  readonly raw: JsonObject;
  /** SHA-256 of `raw`'s canonical JSON: a changed definition changes it. */
  readonly contentHash: string;
  /** The catalog version that last stored it. */
  readonly catalogVersion: number;
  /** When that version was discovered (ISO 8601 UTC). */
  readonly discoveredAt: string;
}

/** What a catalog refresh changed. A changed tool's hash differs; policy may hold it. */
export interface CatalogUpdate {
  /** The catalog version now: one more than before when anything changed or on the first sync. */
  readonly version: number;
  /** Tools stored, the rejected ones left out. */
  readonly toolCount: number;
  /** Names new in this listing, sorted. */
  readonly added: readonly string[];
  /** Names gone from this listing, sorted. */
  readonly removed: readonly string[];
  /** Names whose definition (content hash) changed, sorted. */
  readonly changed: readonly string[];
  /** Listed tools that could not be stored, with why (no name, bad name, duplicate). */
  readonly rejected: readonly {
    /** The tool's position in the listing. */
    readonly index: number;
    /** Why it was not stored. */
    readonly reason: string;
  }[];
  /**
   * Stored tools whose definitions look poisoned, for the operator (`scanToolDefinitions`).
   * Filled by `Registry.replaceCatalog`, which knows the tenant's other servers.
   */
  readonly flagged: readonly ToolFinding[];
}

/** The cached tool list of each connection, versioned and hashed per tool. */
export class ToolCatalogRepository {
  constructor(private readonly db: Executor) {}

  /**
   * Replaces the catalog of `serverId` with `tools` (raw MCP tool objects) in one
   * transaction, bumping the version when anything changed. Zero tools is recorded as zero.
   *
   * @throws ServerNotFoundError (`SERVER_NOT_FOUND`) when the tenant has no connection row
   *   for `serverId`.
   */
  async replace(
    ctx: AgentContext,
    serverId: string,
    tools: readonly unknown[],
  ): Promise<CatalogUpdate> {
    return this.db.transaction().execute(async (trx) => {
      const connection = await trx
        .selectFrom('mcp_connections')
        .select(['id', 'catalog_version', 'tool_count'])
        .where('user_id', '=', ctx.userId)
        .where('server_id', '=', serverId)
        .executeTakeFirst();
      if (connection === undefined) throw notFound(serverId);

      const rejected: { index: number; reason: string }[] = [];
      const incoming = new Map<string, { raw: JsonObject; hash: string }>();
      tools.forEach((tool, index) => {
        const name = (tool as { name?: unknown } | null)?.name;
        if (typeof tool !== 'object' || tool === null || typeof name !== 'string') {
          rejected.push({ index, reason: 'not an object with a string "name"' });
          return;
        }
        const problem = toolNameProblem(name);
        if (problem !== undefined) rejected.push({ index, reason: problem });
        else if (incoming.has(name))
          rejected.push({ index, reason: `duplicate tool name "${name}"` });
        else incoming.set(name, { raw: tool as JsonObject, hash: canonicalHash(tool) });
      });

      const previous = new Map(
        (
          await trx
            .selectFrom('tool_catalog')
            .select(['tool_name', 'content_hash'])
            .where('user_id', '=', ctx.userId)
            .where('connection_id', '=', connection.id)
            .execute()
        ).map((row) => [row.tool_name, row.content_hash]),
      );
      const added = [...incoming.keys()].filter((name) => !previous.has(name)).sort();
      const removed = [...previous.keys()].filter((name) => !incoming.has(name)).sort();
      const changed = [...incoming]
        .filter(([name, tool]) => previous.has(name) && previous.get(name) !== tool.hash)
        .map(([name]) => name)
        .sort();
      const firstSync = connection.tool_count === null;
      const dirty = firstSync || added.length + removed.length + changed.length > 0;
      const version = Number(connection.catalog_version) + (dirty ? 1 : 0);
      const now = timestamp(ctx);

      if (dirty) {
        await trx
          .deleteFrom('tool_catalog')
          .where('user_id', '=', ctx.userId)
          .where('connection_id', '=', connection.id)
          .execute();
        const rows = [...incoming].map(([name, tool]) => ({
          user_id: ctx.userId,
          connection_id: connection.id,
          tool_name: name,
          raw: JSON.stringify(tool.raw),
          content_hash: tool.hash,
          catalog_version: version,
          discovered_at: now,
        }));
        // Chunked: PostgreSQL and SQLite both cap the parameters of one statement.
        for (let i = 0; i < rows.length; i += 200) {
          await trx
            .insertInto('tool_catalog')
            .values(rows.slice(i, i + 200))
            .execute();
        }
      }
      await trx
        .updateTable('mcp_connections')
        .set({
          catalog_version: version,
          tool_count: incoming.size,
          last_sync_at: now,
          updated_at: now,
        })
        .where('user_id', '=', ctx.userId)
        .where('id', '=', connection.id)
        .execute();
      return { version, toolCount: incoming.size, added, removed, changed, rejected, flagged: [] };
    });
  }

  /** The names of every cached tool of the tenant, with their server: one query, no raw JSON. */
  async toolNames(ctx: AgentContext): Promise<{ serverId: string; name: string }[]> {
    const rows = await this.db
      .selectFrom('tool_catalog')
      .innerJoin('mcp_connections', 'mcp_connections.id', 'tool_catalog.connection_id')
      .select(['mcp_connections.server_id', 'tool_catalog.tool_name'])
      .where('tool_catalog.user_id', '=', ctx.userId)
      .where('mcp_connections.user_id', '=', ctx.userId)
      .execute();
    return rows.map((row) => ({ serverId: row.server_id, name: row.tool_name }));
  }

  /** The cached tools of `serverId`, by name; empty when never discovered or not found. */
  async list(ctx: AgentContext, serverId: string): Promise<CatalogTool[]> {
    return (await this.listMany(ctx, [serverId])).get(serverId) ?? [];
  }

  /** The cached tools of several servers in one query, each list sorted by name. */
  async listMany(
    ctx: AgentContext,
    serverIds: readonly string[],
  ): Promise<Map<string, CatalogTool[]>> {
    const byServer = new Map<string, CatalogTool[]>(serverIds.map((id) => [id, []]));
    if (serverIds.length === 0) return byServer;
    const rows = await this.db
      .selectFrom('tool_catalog')
      .innerJoin('mcp_connections', 'mcp_connections.id', 'tool_catalog.connection_id')
      .select([
        'mcp_connections.server_id',
        'tool_catalog.tool_name',
        'tool_catalog.raw',
        'tool_catalog.content_hash',
        'tool_catalog.catalog_version',
        'tool_catalog.discovered_at',
      ])
      .where('tool_catalog.user_id', '=', ctx.userId)
      .where('mcp_connections.user_id', '=', ctx.userId)
      .where('mcp_connections.server_id', 'in', [...serverIds])
      .execute();
    // Sorted here, not in SQL: PostgreSQL's collation and SQLite's byte order disagree.
    rows.sort((a, b) => compareText(a.tool_name, b.tool_name));
    for (const row of rows) {
      byServer.get(row.server_id)?.push({
        name: row.tool_name,
        raw: JSON.parse(row.raw) as JsonObject,
        contentHash: row.content_hash,
        catalogVersion: Number(row.catalog_version),
        discoveredAt: row.discovered_at,
      });
    }
    return byServer;
  }
}
