import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';

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
 * empty lists and `supported: false`, without a request.
 */
export async function listAllResources(
  client: Client,
  request: RequestOptions,
  max: number,
): Promise<ResourceListing> {
  if (client.getServerCapabilities()?.resources === undefined)
    return { supported: false, resources: [], templates: [], truncated: false };
  const resources: Resource[] = [];
  const templates: ResourceTemplate[] = [];
  let truncated = false;
  let cursor: string | undefined;
  do {
    const page = await client.listResources(cursor === undefined ? {} : { cursor }, request);
    resources.push(...page.resources);
    cursor = page.nextCursor;
  } while (cursor !== undefined && resources.length < max);
  truncated ||= cursor !== undefined || resources.length > max;
  cursor = undefined;
  do {
    const page = await client.listResourceTemplates(
      cursor === undefined ? {} : { cursor },
      request,
    );
    templates.push(...page.resourceTemplates);
    cursor = page.nextCursor;
  } while (cursor !== undefined && templates.length < max);
  truncated ||= cursor !== undefined || templates.length > max;
  return {
    supported: true,
    resources: resources.slice(0, max),
    templates: templates.slice(0, max),
    truncated,
  };
}
