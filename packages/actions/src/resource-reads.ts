import { InvalidArgumentsError, type AgentContext, type JsonObject } from '@mcp-agent/core';
import type { ConnectionPool, Registry, ResourceListing } from '@mcp-agent/registry';
import { unavailable } from './dispatch-errors.js';

/** What resource reads need of the connection pool. */
export type ResourcePool = Partial<Pick<ConnectionPool, 'listResources' | 'readResource'>>;

/** The resources of one server as a reader sees them. */
export interface ServerResources {
  /** The server's id. */
  readonly server: string;
  /** Its resources, as MCP lists them. */
  readonly resources: JsonObject[];
  /** Its resource templates, as MCP lists them. */
  readonly templates: JsonObject[];
  /** Set when the listing stopped at its cap. */
  readonly truncated?: true;
  /** Set when the server offers no resources, or could not be asked (then why). */
  readonly note?: string;
}

const MAX_URI = 2_000;

/** The listing as a reader sees it: uri, name, title, MIME type and description of each. */
export function toServerResources(serverId: string, listing: ResourceListing): ServerResources {
  const pick = (item: Record<string, unknown>, keys: readonly string[]): JsonObject =>
    Object.fromEntries(
      keys.filter((key) => typeof item[key] === 'string').map((key) => [key, item[key] as string]),
    );
  return {
    server: serverId,
    resources: listing.resources.map((r) =>
      pick(r, ['uri', 'name', 'title', 'mimeType', 'description']),
    ),
    templates: listing.templates.map((t) =>
      pick(t, ['uriTemplate', 'name', 'title', 'mimeType', 'description']),
    ),
    ...(listing.truncated ? { truncated: true as const } : {}),
    ...(listing.supported ? {} : { note: `Server "${serverId}" offers no resources.` }),
  };
}

/** Refuses what cannot be a resource URI, before anything is asked of a server. */
export function checkResourceUri(uri: unknown): string {
  if (typeof uri !== 'string' || uri.length === 0 || uri.length > MAX_URI || /\s/.test(uri)) {
    throw new InvalidArgumentsError(
      `A resource URI is one word of at most ${MAX_URI} characters, as a resource_link or "resources list" gives it (e.g. demo://resource/static/document/architecture.md).`,
    );
  }
  return uri;
}

/**
 * May the tenant reach this server's resources: their available server only (any other id gets
 * the same "not connected" refusal, whoever else may have a server of that name).
 */
export async function checkServer(registry: Registry, ctx: AgentContext, serverId: string) {
  const verdict = (await registry.availability(ctx)).check(serverId);
  if (verdict.available) return;
  // Not ready yet is no refusal: the pool connects the tenant's own server on demand.
  if (verdict.code === 'not_ready') return;
  throw unavailable(serverId, verdict);
}
