import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Resource,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import { createCheckedContext, type AgentContext, type UserId } from '@mcp-agent/core';
import type { AgentStack } from '@mcp-agent/agent';

// URIs a session remembers the server of: enough for any client, bounded for a long session.
const MAX_REMEMBERED = 5_000;

/** One server's listing as the dispatcher answers it (see `ServerResources`). */
interface Listed {
  readonly resources: Resource[];
  readonly templates: ResourceTemplate[];
}

/**
 * MCP `resources/list`, `resources/templates/list` and `resources/read` for one user's gateway
 * session, through the dispatcher's resource operations (tenant-scoped, behind the same gate as
 * tool calls). Each page of a list is one server's items, the cursor the next server's id: a
 * page starts only the servers it reaches (lazy start) and a client that never lists starts
 * none. Servers with nothing of that kind are skipped, so a page is empty only at the end
 * (RES-05). A refusal (quota, rate limit, policy) or a server that could not be asked is a
 * JSON-RPC error with the reason and the cursor past that server, never an empty page. A read
 * goes to the server that listed the URI; one never listed in this session is refused with what
 * to do.
 */
export function serveResources(server: Server, stack: AgentStack, userId: UserId): void {
  const origin = new Map<string, string>();
  const remember = (uri: string, serverId: string) => {
    origin.delete(uri);
    origin.set(uri, serverId);
    if (origin.size > MAX_REMEMBERED) origin.delete(origin.keys().next().value as string);
  };
  server.setRequestHandler(ListResourcesRequestSchema, async (request, extra) => {
    const ctx = createCheckedContext({ userId, signal: extra.signal });
    const page = await firstFilledPage(stack, ctx, request.params?.cursor, 'resources');
    for (const resource of page.items) remember(resource.uri, page.serverId);
    return {
      resources: page.items.map((resource) => ({
        ...resource,
        _meta: { ...resource._meta, 'mcp-agent/server': page.serverId },
      })),
      ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
    };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async (request, extra) => {
    const ctx = createCheckedContext({ userId, signal: extra.signal });
    const page = await firstFilledPage(stack, ctx, request.params?.cursor, 'templates');
    return {
      resourceTemplates: page.items.map((template) => ({
        ...template,
        _meta: { ...template._meta, 'mcp-agent/server': page.serverId },
      })),
      ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
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
    const ctx = createCheckedContext({ userId, signal: extra.signal });
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

// From the cursor's server on, the first server with items of `kind`: its items, and the next
// server's id as the cursor (absent at the end). Past the last server, an empty page.
async function firstFilledPage<K extends keyof Listed>(
  stack: AgentStack,
  ctx: AgentContext,
  cursor: string | undefined,
  kind: K,
): Promise<{ serverId: string; items: Listed[K]; nextCursor: string | undefined }> {
  const servers = (await stack.registry.availability(ctx)).active.map((s) => s.id);
  const start = cursor === undefined ? 0 : servers.indexOf(cursor);
  if (start < 0)
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown cursor: list again from the start (without a cursor).`,
    );
  for (let index = start; index < servers.length; index++) {
    const serverId = servers[index] as string;
    const nextCursor = servers[index + 1];
    const listed = await stack.dispatcher.listResources(ctx, serverId, { signal: ctx.signal });
    if (!listed.ok) {
      const past =
        nextCursor === undefined ? '' : ` (cursor "${nextCursor}" lists the servers after it)`;
      throw new McpError(
        ErrorCode.InternalError,
        `${listed.error.code}: ${listed.error.message}${past}`,
        {
          server: serverId,
          code: listed.error.code,
          ...(nextCursor === undefined ? {} : { nextCursor }),
        },
      );
    }
    const items = (listed.data as unknown as Listed)[kind];
    if (items.length > 0) return { serverId, items, nextCursor };
  }
  return { serverId: '', items: [] as unknown as Listed[K], nextCursor: undefined };
}
