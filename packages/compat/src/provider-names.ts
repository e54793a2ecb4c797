import {
  SERVER_ID_PATTERN,
  ServerNotFoundError,
  type MCPTaskResult,
  type ServerUsage,
  type TaskUsage,
  type ToolSpec,
} from '@mcp-agent/core';
import type { ManifestServer, ToolManifest } from '@mcp-agent/knowledge';

// A server was once called a "provider" (providerId, ProviderNotFoundError, manifest.providers),
// and usage called it a "connector" (usage.connectors, each entry's connector).
// Since issue 31 every package says "server"; the old names answer here, and only here.

/**
 * @deprecated Use `ServerNotFoundError` from `@mcp-agent/core`: the same class, so `instanceof`
 * and `isInstance` still match what the library throws. Its `code` is now `SERVER_NOT_FOUND`
 * (was `PROVIDER_NOT_FOUND`): compare codes with the new one.
 */
export const ProviderNotFoundError = ServerNotFoundError;
/** @deprecated Use `ServerNotFoundError` from `@mcp-agent/core`. */
export type ProviderNotFoundError = ServerNotFoundError;

/** @deprecated Use `SERVER_ID_PATTERN` from `@mcp-agent/core` (the same pattern). */
export const PROVIDER_ID_PATTERN: RegExp = SERVER_ID_PATTERN;

/** A manifest entry under its old name too: `provider` is `server`. */
export interface LegacyManifestServer extends ManifestServer {
  /** @deprecated Use `server`. */
  readonly provider: ManifestServer['server'];
}

/** A manifest as `getManifest` returned it before the rename, and as it is now. */
export interface LegacyToolManifest extends ToolManifest {
  readonly servers: readonly LegacyManifestServer[];
  /** @deprecated Use `servers`. */
  readonly providers: readonly LegacyManifestServer[];
}

/** A tool spec with its server id under its old name too. */
export interface LegacyToolSpec extends ToolSpec {
  /** @deprecated Use `serverId`. */
  readonly providerId: string;
}

/** The manifest with the old names beside the new ones, for callers of the older API. */
export function withProviderNames(manifest: ToolManifest): LegacyToolManifest {
  const servers = manifest.servers.map((entry) => ({ ...entry, provider: entry.server }));
  return { ...manifest, servers, providers: servers };
}

/** The spec with `providerId` beside `serverId`. */
export function withProviderId(spec: ToolSpec): LegacyToolSpec {
  return { ...spec, providerId: spec.serverId };
}

/** A server's share of a task under its old name too: `connector` is `server`. */
export interface LegacyServerUsage extends ServerUsage {
  /** @deprecated Use `server`. */
  readonly connector: string;
}

/** A task's usage as `executeMcpTask` returned it before the rename, and as it is now. */
export interface LegacyTaskUsage extends TaskUsage {
  readonly servers?: readonly LegacyServerUsage[];
  /** @deprecated Use `servers`. */
  readonly connectors?: readonly LegacyServerUsage[];
}

/** A task result whose usage says `connectors` beside `servers`. */
export interface LegacyTaskResult extends MCPTaskResult {
  readonly usage: LegacyTaskUsage;
}

/** The result with usage's old names beside the new ones, for callers of the older API. */
export function withConnectorNames(result: MCPTaskResult): LegacyTaskResult {
  const { servers: recorded, ...usage } = result.usage;
  if (recorded === undefined) return { ...result, usage };
  const servers = recorded.map((entry) => ({ ...entry, connector: entry.server }));
  return { ...result, usage: { ...usage, servers, connectors: servers } };
}
