import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { AgentStack, OpenAgentStackOptions } from '@mcp-agent/agent';
import type { ToolSearchResult } from '@mcp-agent/knowledge';
import { contextFor, defaultStack, openDefaultStack } from './default-stack.js';
import { deprecated } from './deprecation.js';
import {
  withConnectorNames,
  withProviderId,
  withProviderNames,
  type LegacyTaskResult,
  type LegacyToolManifest,
  type LegacyToolSpec,
} from './provider-names.js';

/** @deprecated Use `openAgentStack(options)` from `@mcp-agent/agent` and keep the stack. */
export async function initRegistry(options: OpenAgentStackOptions = {}): Promise<AgentStack> {
  deprecated(
    'initRegistry',
    'MCPAGENT_DEP_001',
    'use openAgentStack() from @mcp-agent/agent and keep the stack it returns',
  );
  return openDefaultStack(options);
}

/** @deprecated Use `stack.pool.ready(ctx, serverId)`; the pool keeps the session. */
export async function getClient(userId: string, serverId: string): Promise<Client> {
  deprecated(
    'getClient',
    'MCPAGENT_DEP_002',
    'use stack.pool.ready(ctx, serverId) (or dispatchTool); sessions are pooled per user',
  );
  const connection = await defaultStack().pool.ready(contextFor(userId), serverId);
  return connection.client as Client;
}

/** @deprecated Use `stack.registry.activeServers(ctx)`. */
export async function isRegistered(userId: string, serverId: string): Promise<boolean> {
  deprecated('isRegistered', 'MCPAGENT_DEP_003', 'use stack.registry.activeServers(ctx)');
  return (await defaultStack().registry.activeServers(contextFor(userId))).some(
    (s) => s.id === serverId,
  );
}

/**
 * @deprecated Use `stack.knowledge.manifest(ctx)`. The old names come along: `providers` beside
 * `servers`, and `provider` beside `server` in each entry.
 */
export async function getManifest(userId: string): Promise<LegacyToolManifest> {
  deprecated('getManifest', 'MCPAGENT_DEP_004', 'use stack.knowledge.manifest(ctx)');
  return withProviderNames(await defaultStack().knowledge.manifest(contextFor(userId)));
}

/**
 * @deprecated The tool index is per tenant and internal; use `stack.knowledge.search(ctx, query)`.
 * Each spec has `providerId` beside `serverId`.
 */
export async function getIndex(userId: string): Promise<LegacyToolSpec[]> {
  deprecated(
    'getIndex',
    'MCPAGENT_DEP_005',
    'use stack.knowledge.search(ctx, query) or stack.knowledge.manifest(ctx)',
  );
  const manifest = await defaultStack().knowledge.manifest(contextFor(userId));
  return manifest.servers.flatMap((p) => p.tools.map((t) => withProviderId(t.spec)));
}

/** @deprecated Use `stack.knowledge.search(ctx, query, {limit})`. */
export async function searchTools(
  userId: string,
  query: string,
  limit = 5,
): Promise<ToolSearchResult[]> {
  deprecated(
    'searchTools',
    'MCPAGENT_DEP_006',
    'use stack.knowledge.search(ctx, query, { limit })',
  );
  return defaultStack().knowledge.search(contextFor(userId), query, { limit });
}

/** @deprecated Use `stack.agent.executeTask(task, userId, options)`. */
export async function executeMcpTask(task: string, userId: string): Promise<LegacyTaskResult> {
  deprecated(
    'executeMcpTask',
    'MCPAGENT_DEP_007',
    'use stack.agent.executeTask(task, userId, options)',
  );
  return withConnectorNames(await defaultStack().agent.executeTask(task, userId));
}

/** @deprecated Use `stack.oauth` (`OAuthService`) and `stack.registry.isAuthorized`. */
export class OAuthManager {
  constructor() {
    deprecated(
      'OAuthManager',
      'MCPAGENT_DEP_008',
      'use stack.oauth (OAuthService) and stack.registry.isAuthorized(ctx, serverId)',
    );
  }

  /** @deprecated Use `stack.oauth.startOAuth(ctx, serverId, redirectUri)`. */
  async startOAuth(
    userId: string,
    serverId: string,
    redirectUri: string,
  ): Promise<{
    /** Where to send the user to sign in. */
    authorizationUrl: string;
  }> {
    return defaultStack().oauth.startOAuth(contextFor(userId), serverId, redirectUri);
  }

  /** @deprecated Use `stack.oauth.finalizeOAuth(ctx, serverId, code, state, iss)`. */
  async finalizeConnectedAccount(
    userId: string,
    serverId: string,
    code: string,
    state: string,
    iss?: string,
  ): Promise<void> {
    await defaultStack().oauth.finalizeOAuth(contextFor(userId), serverId, code, state, iss);
  }

  /** @deprecated Use `stack.oauth.disconnect(ctx, serverId)`. */
  async disconnect(userId: string, serverId: string): Promise<void> {
    await defaultStack().oauth.disconnect(contextFor(userId), serverId);
  }

  /** @deprecated Use `stack.registry.isAuthorized(ctx, serverId)`. */
  async isAuthorized(userId: string, serverId: string): Promise<boolean> {
    return defaultStack().registry.isAuthorized(contextFor(userId), serverId);
  }
}
