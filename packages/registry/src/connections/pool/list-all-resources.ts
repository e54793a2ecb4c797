import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ErrorCode,
  McpError,
  type Resource,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';

/** What a server offers to read: its resources and resource templates. */
export interface ResourceListing {
  /** False when the server declares no resources capability. */
  readonly supported: boolean;
  /** The resources, in the server's order, at most the cap (default 1,000). */
  readonly resources: readonly Resource[];
  /** The resource templates (URI templates), in the server's order, at most the cap. */
  readonly templates: readonly ResourceTemplate[];
  /** True when there were more than the listing's cap. */
  readonly truncated: boolean;
}

/**
 * Every page of resources/list and resources/templates/list up to `max` of each (`truncated`
 * says when there were more). A server that declares no resources capability answers with
 * empty lists and `supported: false`, without a request. Either method answered -32601 (Method
 * not found) means none of that kind (RES-04): templates are optional, and servers that declare
 * resources without them are common; any other failure is thrown.
 */
export async function listAllResources(
  client: Client,
  request: RequestOptions,
  max: number,
): Promise<ResourceListing> {
  if (client.getServerCapabilities()?.resources === undefined)
    return { supported: false, resources: [], templates: [], truncated: false };
  const resources = await everyPage(max, async (cursor) => {
    const page = await client.listResources(cursor === undefined ? {} : { cursor }, request);
    return { items: page.resources, nextCursor: page.nextCursor };
  });
  const templates = await everyPage(max, async (cursor) => {
    const page = await client.listResourceTemplates(
      cursor === undefined ? {} : { cursor },
      request,
    );
    return { items: page.resourceTemplates, nextCursor: page.nextCursor };
  });
  return {
    supported: true,
    resources: resources.items.slice(0, max),
    templates: templates.items.slice(0, max),
    truncated: resources.truncated || templates.truncated,
  };
}

// Pages of one list method until its end or `max` items; a method the server lacks lists none.
async function everyPage<T>(
  max: number,
  page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>,
): Promise<{ items: T[]; truncated: boolean }> {
  const items: T[] = [];
  let cursor: string | undefined;
  try {
    do {
      const next = await page(cursor);
      items.push(...next.items);
      cursor = next.nextCursor;
    } while (cursor !== undefined && items.length < max);
  } catch (error) {
    // Only on the first page: a method that answered once and then "not found" is a failure.
    if (cursor === undefined && items.length === 0 && isMethodNotFound(error))
      return { items: [], truncated: false };
    throw error;
  }
  return { items, truncated: cursor !== undefined || items.length > max };
}

function isMethodNotFound(error: unknown): boolean {
  return error instanceof McpError && error.code === (ErrorCode.MethodNotFound as number);
}
