import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import {
  InvalidArgumentsError,
  NotReadyError,
  type AgentContext,
  type JsonObject,
  type JsonValue,
} from '@mcp-agent/core';
import type { ConnectionPool, Registry } from '@mcp-agent/registry';
import { unavailable } from './dispatch-errors.js';

/** What resource reads need of the connection pool. */
export type ResourcePool = Partial<Pick<ConnectionPool, 'listResources' | 'readResource'>>;

/** The resources of one server as a reader sees them. */
export interface ServerResources {
  readonly server: string;
  readonly resources: JsonObject[];
  readonly templates: JsonObject[];
  /** Set when the listing stopped at its cap. */
  readonly truncated?: true;
  /** Set when the server offers no resources, or could not be asked (then why). */
  readonly note?: string;
}

const MAX_URI = 2_000;

/**
 * The server's resources and templates (uri, name, title, MIME type, description), for the
 * tenant's available server only: any other id gets the same "not connected" refusal, whoever
 * else may have a server of that name.
 */
export async function listServerResources(
  registry: Registry,
  pool: ResourcePool,
  ctx: AgentContext,
  serverId: string,
  signal?: AbortSignal,
): Promise<ServerResources> {
  await checkServer(registry, ctx, serverId);
  if (pool.listResources === undefined) throw noResources();
  const listing = await pool.listResources(ctx, serverId, signal === undefined ? {} : { signal });
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

/**
 * One resource of the tenant's server, as the embedded resources of a tool result are:
 * `[{type: "resource", resource: {uri, mimeType, text | blob}}, …]`, so the envelope, code and
 * the CLI treat both alike (text whole or cut honestly, binary data described or written out).
 */
export async function readServerResource(
  registry: Registry,
  pool: ResourcePool,
  ctx: AgentContext,
  serverId: string,
  uri: string,
  signal?: AbortSignal,
): Promise<JsonValue> {
  if (typeof uri !== 'string' || uri.length === 0 || uri.length > MAX_URI || /\s/.test(uri)) {
    throw new InvalidArgumentsError(
      `A resource URI is one word of at most ${MAX_URI} characters, as a resource_link or "resources list" gives it (e.g. demo://resource/static/document/architecture.md).`,
    );
  }
  await checkServer(registry, ctx, serverId);
  if (pool.readResource === undefined) throw noResources();
  const result: ReadResourceResult = await pool.readResource(
    ctx,
    serverId,
    uri,
    signal === undefined ? {} : { signal },
  );
  return result.contents.map((content) => ({
    type: 'resource',
    resource: content as JsonObject,
  }));
}

async function checkServer(registry: Registry, ctx: AgentContext, serverId: string) {
  const verdict = (await registry.availability(ctx)).check(serverId);
  if (verdict.available) return;
  // Not ready yet is no refusal: the pool connects the tenant's own server on demand.
  if (verdict.code === 'not_ready') return;
  throw unavailable(serverId, verdict);
}

function noResources(): NotReadyError {
  return new NotReadyError('Resources cannot be read here: the connection pool offers no reads.');
}
