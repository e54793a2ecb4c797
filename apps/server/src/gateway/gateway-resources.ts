import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import { createContext } from '@mcp-agent/core';
import type { AgentStack } from '@mcp-agent/agent';

// URIs a session remembers the server of: enough for any client, bounded for a long session.
const MAX_REMEMBERED = 5_000;

/**
 * MCP `resources/list` and `resources/read` for one user's gateway session, through the
 * dispatcher's resource operations (tenant-scoped, behind the same gate as tool calls). Each
 * page of the list is one server's resources, the cursor the next server's id, so a page starts
 * only its own server (lazy start) and a client that never lists starts none. A read goes to the
 * server that listed the URI; one never listed in this session is refused with what to do.
 */
export function serveResources(server: Server, stack: AgentStack, userId: string): void {
  const origin = new Map<string, string>();
  server.setRequestHandler(ListResourcesRequestSchema, async (request, extra) => {
    const ctx = createContext({ userId, signal: extra.signal });
    const servers = (await stack.registry.availability(ctx)).active.map((s) => s.id);
    const cursor = request.params?.cursor;
    const index = cursor === undefined ? 0 : servers.indexOf(cursor);
    if (index < 0)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown cursor: list again from the start (resources/list without a cursor).`,
      );
    const serverId = servers[index];
    const next = servers[index + 1];
    if (serverId === undefined) return { resources: [] };
    const listed = await stack.dispatcher.listResources(ctx, serverId, { signal: extra.signal });
    const resources = listed.ok
      ? (listed.data as unknown as { resources: Resource[] }).resources
      : [];
    for (const resource of resources) {
      origin.delete(resource.uri);
      origin.set(resource.uri, serverId);
      if (origin.size > MAX_REMEMBERED) origin.delete(origin.keys().next().value as string);
    }
    return {
      resources: resources.map((resource) => ({
        ...resource,
        _meta: { ...resource._meta, 'mcp-agent/server': serverId },
      })),
      ...(next === undefined ? {} : { nextCursor: next }),
    };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const { uri } = request.params;
    const serverId = origin.get(uri);
    if (serverId === undefined)
      throw new McpError(
        ErrorCode.InvalidParams,
        `${uri.slice(0, 200)} was not listed in this session: list resources first (resources/list), or call the read_resource tool with the server's id.`,
      );
    const ctx = createContext({ userId, signal: extra.signal });
    const read = await stack.dispatcher.readResource(ctx, serverId, uri, {
      caller: 'code',
      signal: extra.signal,
    });
    if (!read.ok)
      throw new McpError(ErrorCode.InternalError, `${read.error.code}: ${read.error.message}`);
    const blocks = read.data as unknown as { resource: { uri: string } }[];
    return { contents: blocks.map((block) => block.resource) };
  });
}
