import { configError, parseServerConfig, type ServerConfig } from '@mcp-agent/core';

/** The app servers by id, each validated; a duplicate id is a `CONFIG_INVALID` naming it. */
export function indexAppServers(
  servers: readonly ServerConfig[],
): ReadonlyMap<string, ServerConfig> {
  const byId = new Map<string, ServerConfig>();
  const duplicates: string[] = [];
  servers.forEach((server, index) => {
    const config = parseServerConfig(server, ['appServers', index]);
    if (byId.has(config.id)) duplicates.push(config.id);
    byId.set(config.id, config);
  });
  if (duplicates.length > 0) {
    throw configError(
      'Invalid app servers',
      duplicates.map((id) => ({
        path: 'appServers',
        message: `server id "${id}" is defined twice`,
      })),
    );
  }
  return byId;
}
